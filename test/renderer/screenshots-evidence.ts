/**
 * The evidence screens for the README (run by screenshots.ts): the credentials check, HTTP evidence
 * import, the scope hint, the duplicate hint, an evidence image inline and the Payouts screen.
 * Every secret shown is a fake made at run time.
 */
import type { Page } from 'playwright-core';
import type { AppHost } from '../app/host';
import { curlFixtures, fixtureSecrets } from '../evidence/fixtures/http';
import { pngWithGpsOf } from '../evidence/fixtures/images';
import { fakeJwt, randomFrom } from '../support/fake-secrets';
import { templateDescription } from '../support/fixtures';
import { goTo } from './support/ui';

const DESCRIPTION = (steps: string): string =>
  templateDescription({
    'Steps to reproduce': steps,
    'Expected behavior': 'Only the owner of an order can read it.',
    'Actual behavior': 'Any signed-in customer reads any order, with its address.',
    'Security impact': 'Names, addresses and phone numbers of every customer are exposed.',
  });

export interface EvidenceScenes {
  credentials: string;
  http: string;
  scope: string;
  similar: string;
  image: string;
}

/** A 480×220 "browser screenshot" (a title bar, a page, a red alert box), with a GPS position. */
function screenshotPng(): Buffer {
  return pngWithGpsOf(480, 220, (x, y) => {
    if (y < 28) return x % 480 < 60 ? [0xd0, 0x55, 0x4a] : [0x3c, 0x41, 0x4c];
    if (y > 80 && y < 150 && x > 60 && x < 420) {
      const border = y < 84 || y > 146 || x < 64 || x > 416;
      return border ? [0xb3, 0x26, 0x1e] : [0xfd, 0xec, 0xea];
    }
    return (y - 40) % 18 < 3 && x > 30 && x < 300 ? [0xc8, 0xcc, 0xd4] : [0xff, 0xff, 0xff];
  });
}

export async function seedEvidence(host: AppHost): Promise<EvidenceScenes> {
  const e = host.engine;
  await host.sandbox.patchProgram('sandbox-playground', {
    policy: {
      scope:
        '- `*.shop.playground.example` (every storefront)\n- https://api.playground.example/v2\n- Android app `com.playground.shop`',
      exclusions:
        '- legacy.shop.playground.example (retired, read-only)\n- Denial of service and rate limits',
    },
  });
  await e.syncNow();

  // First, while nothing is held for credentials (settled() waits for an empty outbox): one
  // more payout (another program, still being approved) for the Payouts screen.
  const paid = await host.writeDraft('globex-api', {
    title: 'GraphQL introspection leaks internal mutations',
    asset: 'https://api.globex.example/graphql',
    description: DESCRIPTION('1. Send the standard introspection query.'),
    cvss_vector: '',
  });
  await host.submitSettled(paid);
  await host.sandbox.act(paid, {
    actor: 'founder',
    status: 'accepted',
    message: 'Valid.',
  });
  await host.sandbox.payout(paid, { status: 'approving', amount_cents: 75_000 });
  // 1. Credentials: a bearer JWT and a cookie in the description, a session log with a cookie.
  const credentials = await host.writeDraft('sandbox-playground', {
    title: 'Order details readable by any customer',
    asset: 'https://eu.shop.playground.example/api/orders',
    description: DESCRIPTION(
      [
        '1. Sign in as customer A and open an order.',
        '2. Replay the request with the id of an order of customer B:',
        '',
        'GET /api/orders/1002',
        `Authorization: Bearer ${fakeJwt()}`,
      ].join('\n'),
    ),
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  });
  const log = await host.file(
    'session.log',
    `GET /api/orders/1002 HTTP/1.1\nHost: eu.shop.playground.example\nCookie: sid=${randomFrom('abcdef0123456789', 32)}\n`,
  );
  await e.attachFiles(credentials, [{ file: await host.tokenFor(log) }]);

  // 2. HTTP evidence: a curl command ("Copy as cURL") imported as a redacted code block.
  const http = await host.writeDraft('sandbox-playground', {
    title: 'Negative quantity lowers the cart total',
    asset: 'https://api.playground.example/v2/cart',
    description: DESCRIPTION('1. Add any item to the cart.\n2. Send the request below.'),
    cvss_vector: '',
  });
  const [curl] = curlFixtures(fixtureSecrets());
  const at = DESCRIPTION('1. Add any item to the cart.\n2. Send the request below.').indexOf(
    '## Expected',
  );
  await e.importHttpEvidence(http, { text: curl?.command ?? '', insertAt: at });

  // 3. Scope: an asset that matches an exclusion.
  const scope = await host.writeDraft('sandbox-playground', {
    title: 'Stored XSS in the legacy storefront search',
    asset: 'https://legacy.shop.playground.example/search',
    description: DESCRIPTION('1. Search for `<svg onload=alert(1)>`.'),
    cvss_vector: '',
  });

  // 4. Duplicate hint: close to the submitted open-redirect report of acme-web.
  const similar = await host.writeDraft('acme-web', {
    title: 'Open redirect in the login next parameter',
    asset: 'https://app.acme.example/login',
    description: DESCRIPTION('1. Open `/login?next=//evil.example`.\n2. Sign in.'),
    cvss_vector: '',
  });

  // 5. An evidence image: dropped with its GPS position, shown without it.
  const steps = '1. Open the order page of another customer.';
  const image = await host.writeDraft('sandbox-playground', {
    title: 'Order page shows another customer’s address',
    asset: 'https://eu.shop.playground.example/orders/1002',
    description: DESCRIPTION(steps),
    cvss_vector: '',
  });
  const png = await host.file('order-page.png', screenshotPng());
  await e.attachFiles(image, [
    { file: await host.tokenFor(png), insertAt: DESCRIPTION(steps).indexOf('## Expected') },
  ]);

  await e.syncNow();
  return {
    credentials: credentials,
    http: http,
    scope: scope,
    similar: similar,
    image: image,
  };
}

export async function shootEvidence(
  page: Page,
  ids: EvidenceScenes,
  shot: (name: string) => Promise<void>,
): Promise<void> {
  await goTo(page, `#/reports/${ids.credentials}`);
  const findings = page.getByRole('region', { name: 'Credentials check', exact: true });
  await findings.getByRole('listitem').nth(1).waitFor();
  await findings.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 400);
  await shot('credentials');

  await goTo(page, `#/reports/${ids.http}`);
  const editor = page.getByRole('textbox', { name: 'Description', exact: true });
  await editor.getByText(/REDACTED:jwt/).waitFor();
  await editor.getByText(/POST \/api\/cart/).scrollIntoViewIfNeeded();
  await shot('http-import');

  await goTo(page, `#/reports/${ids.scope}`);
  await page.getByRole('status', { name: 'Scope', exact: true }).waitFor();
  await shot('scope');

  await goTo(page, `#/reports/${ids.similar}`);
  await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
  const similar = page.getByRole('list', { name: 'Similar reports', exact: true });
  await similar.waitFor();
  await similar.scrollIntoViewIfNeeded();
  await shot('similar');
  await page.keyboard.press('Escape');

  await goTo(page, `#/reports/${ids.image}`);
  const img = page.getByRole('img', { name: 'order-page.png', exact: true });
  await img.waitFor();
  await img.scrollIntoViewIfNeeded();
  await shot('image');

  await goTo(page, '#/payouts');
  await page.getByRole('table', { name: 'Payouts', exact: true }).waitFor();
  await shot('payouts');
}

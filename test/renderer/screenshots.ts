/**
 * Screenshots of every screen in both themes, for the README: `bash scripts/with-keyring.sh npx
 * tsx test/renderer/screenshots.ts` writes docs/screenshots/<screen>-<theme>.png (1280×800). The
 * app runs as built (renderer in Chromium, main under the Electron stand-in), against a sandbox holding a small,
 * realistic world. Not part of `npm test`.
 */

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { ROOT } from '../app/build';
import { AppHost } from '../app/host';
import { templateDescription } from '../support/fixtures';
import { openApp, startSuite, type Suite } from './support/app';
import { goTo, until } from './support/ui';
import { seedEvidence, shootEvidence } from './screenshots-evidence';

const OUT = join(ROOT, 'docs/screenshots');
const CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N';
const describe = (steps: string, impact: string): string =>
  templateDescription({
    'Steps to reproduce': steps,
    'Expected behavior': 'The `next` parameter only accepts paths on the same site.',
    'Actual behavior': 'The browser follows any absolute URL after the login succeeds.',
    'Security impact': impact,
  });

async function shot(page: Page, name: string, theme: string): Promise<void> {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `${name}-${theme}.png`) });
  console.log(`docs/screenshots/${name}-${theme}.png`);
}

async function go(page: Page, hash: string): Promise<void> {
  await goTo(page, hash);
}

/** A world worth looking at: a submitted report with a whole thread, drafts, a conflict. */
async function seed(
  host: AppHost,
): Promise<{ submitted: string; draft: string; incomplete: string; conflict: string }> {
  const e = host.engine;
  const program = 'acme-web';
  const evidence = await host.file('redirect-poc.txt', 'GET /login?next=https://evil.example\n');

  const sub = await host.writeDraft(program, {
    title: 'Open redirect after login via the next parameter',
    asset: 'https://app.acme.example/login',
    description: describe(
      '1. Open `/login?next=https://evil.example`.\n2. Sign in.',
      'Phishing pages can borrow the trusted login flow.',
    ),
    cvss_vector: CVSS,
  });
  await e.attachFiles(sub, [{ file: await host.tokenFor(evidence) }]);
  await host.submitSettled(sub);
  await host.sandbox.askForInformation(sub, 'Thanks! Which browser and version did you use?');
  await e.syncNow();
  const shot = await host.file('browser-version.txt', 'Firefox 140.0 (64-bit), Linux\n');
  await e.postMessage(sub, {
    body: 'Firefox 140 on Linux, default settings. The log is attached.',
    files: [await host.tokenFor(shot)],
  });
  await host.settled();
  await host.sandbox.acceptAndPay(
    sub,
    'Confirmed and fixed in release 4.2. Thank you for the clear report!',
    250_000,
  );
  await e.syncNow();

  const draft = await host.writeDraft('sandbox-playground', {
    title: 'Stored XSS in the profile display name',
    asset: 'https://playground.sandbox.example/profile',
    description: describe(
      '1. Set the display name to `<img src=x onerror=alert(1)>`.\n2. Open the team page.',
      'Any team member runs script in the victim session.',
    ),
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N',
  });
  const png = await host.file(
    'team-page.png',
    Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  );
  const [file] = await e.attachFiles(draft, [{ file: await host.tokenFor(png) }]);
  const withLink = (await e.getReport(draft))?.draft?.content;
  if (withLink && file) {
    await e.saveDraft(draft, {
      ...withLink,
      description: withLink.description.replace(
        '2. Open the team page.',
        `2. Open the team page.\n\n![team-page.png](/reports/${draft}/files/${file.fileId})`,
      ),
    });
  }

  const incomplete = await host.writeDraft('globex-api', {
    title: 'Rate limit bypass on the token endpoint',
    asset: 'https://api.globex.example/oauth/token',
    description:
      '## Steps to reproduce\n\nSend 500 requests with rotating `X-Forwarded-For` headers.\n\n## Expected behavior\n\n## Actual behavior\n\n## Security impact\n',
    cvss_vector: '',
  });

  // A conflict: the server copy changed (another device) while this one edited the same fields.
  const conflict = await host.writeDraft('umbrella-cloud', {
    title: 'Public bucket listing of build artifacts',
    asset: 's3://umbrella-artifacts',
    description: describe(
      '1. `aws s3 ls s3://umbrella-artifacts --no-sign-request`.',
      'Build artifacts with embedded tokens are public.',
    ),
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  });
  await host.settled();
  const server = await host.sandbox.api<Report>('GET', `/api/reports/${conflict}`, {
    token: host.key,
  });
  await host.sandbox.api('PUT', `/api/reports/${conflict}`, {
    token: host.key,
    body: {
      program_id: 'umbrella-cloud',
      title: 'Bucket listing exposes signed build artifacts',
      asset: server.body.asset,
      description: server.body.description,
      cvss_vector: server.body.cvss_vector,
      revision: server.body.revision,
    },
  });
  const local = (await e.getReport(conflict))?.draft?.content;
  if (local)
    await e.saveDraft(conflict, {
      ...local,
      title: 'Anonymous listing of the artifacts bucket',
    });
  await host.settled().catch(() => undefined);
  await until(
    'the conflict',
    async () => ((await e.getReport(conflict))?.draft?.conflicts.length ?? 0) > 0,
    15_000,
  );
  await e.syncNow();
  return {
    submitted: sub,
    draft: draft,
    incomplete: incomplete,
    conflict: conflict,
  };
}

async function run(suite: Suite, theme: 'light' | 'dark'): Promise<void> {
  const host = await AppHost.open({
    account: { email_verified: true, payments_status: 'ready' },
  });
  try {
    const app = await openApp(suite, host, { colorScheme: theme });
    const { page } = app;
    const dataTheme = await page.evaluate(
      () =>
        (
          globalThis as unknown as {
            document: { documentElement: { dataset: Record<string, string> } };
          }
        ).document.documentElement.dataset.theme,
    );
    if (dataTheme !== theme)
      await page.getByRole('button', { name: 'Toggle theme', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    await shot(page, 'first-run', theme);

    await page.getByRole('textbox', { name: 'Server URL', exact: true }).fill(host.sandbox.url);
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(host.key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    const ids = await seed(host);
    const evidence = await seedEvidence(host);
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await page.waitForTimeout(500);
    await shot(page, 'programs', theme);

    await go(page, '#/programs/acme-web');
    await page.getByRole('region', { name: 'Policy', exact: true }).waitFor();
    await shot(page, 'program', theme);

    await go(page, '#/reports');
    await page.getByRole('list', { name: 'Reports', exact: true }).waitFor();
    await shot(page, 'reports', theme);

    await go(page, `#/reports/${ids.draft}`);
    await page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();
    await shot(page, 'editor', theme);

    await go(page, `#/reports/${ids.incomplete}`);
    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    await page.getByRole('dialog', { name: 'Submit checklist', exact: true }).waitFor();
    await shot(page, 'checklist', theme);
    await page.keyboard.press('Escape');

    await go(page, `#/reports/${ids.submitted}`);
    const thread = page.getByRole('region', { name: 'Messages', exact: true });
    await thread.waitFor();
    // The thread is the point of this screen: show it with the payout above it (the wheel
    // turns over the open report, beside the list).
    await page.getByRole('region', { name: 'Payout', exact: true }).scrollIntoViewIfNeeded();
    await page.mouse.move(900, 500);
    await page.mouse.wheel(0, 300);
    await shot(page, 'report', theme);

    // The two-pane workspace: sorted by severity, a draft open beside the list.
    const sortBy = page.getByRole('combobox', { name: 'Sort by', exact: true });
    await sortBy.selectOption({ label: 'Severity (CVSS)' });
    await go(page, `#/reports/${ids.conflict}`);
    await page.getByRole('region', { name: 'Conflicts', exact: true }).waitFor();
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    await until('the list by severity', async () =>
      /^CVSS 7\.5/u.test(
        (await list.getByRole('listitem').first().locator('.severity').innerText()) ?? '',
      ),
    );
    await shot(page, 'workspace', theme);
    await sortBy.selectOption({ label: 'Last update' });

    await go(page, `#/reports/${ids.conflict}`);
    await page.getByRole('region', { name: 'Conflicts', exact: true }).waitFor();
    await shot(page, 'conflict', theme);

    await go(page, '#/account');
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await shot(page, 'account', theme);

    await shootEvidence(page, evidence, (name) => shot(page, name, theme));
    await app.close();
  } finally {
    await host.close();
  }
}

await mkdir(OUT, { recursive: true });
const suite = await startSuite();
try {
  for (const theme of ['light', 'dark'] as const) await run(suite, theme);
} finally {
  await suite.close();
}

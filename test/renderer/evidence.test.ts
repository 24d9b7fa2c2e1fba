import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { useAppPerTest } from './support/app';
import type { AppHost } from '../app/host';
import {
  caretAtEndOf,
  focusWithin,
  hasFocus,
  expectNoText,
  expectText,
  goTo,
  pasteInto,
  until,
} from './support/ui';
import { COMPLETE_DESCRIPTION as COMPLETE } from '../support/fixtures';
import { fakeJwt, randomFrom, vendorShapes } from '../support/fake-secrets';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
import { realFile } from '../support/real-corpus';
import { curlFixtures, fixtureSecrets, harFixture } from '../evidence/fixtures/http';
import { gpsBytes, hostileSvg, pngWithGps } from '../evidence/fixtures/images';

/** The page's globals a test samples the focus with, frame by frame. */
interface FocusSampler {
  document: { activeElement: unknown; body: unknown };
  requestAnimationFrame(run: () => void): void;
  __onBody: number;
  __sampling: boolean;
}

/**
 * Through the app as built (renderer, preload, main, engine process, sandbox): the
 * credentials check with Redact and Keep, HTTP evidence pasted and dropped, the scope hint, the
 * duplicate hint, evidence images inline and the Payouts screen with its CSV export.
 */
// Each test walks several screens of the built app in Chromium: 30 s is too little on a loaded
// 2-core runner (one took 35 s in a full run), so these get 90 s; a hang still fails.
describe('renderer: evidence that never leaks', { timeout: 90_000 }, () => {
  const apps = useAppPerTest('evidence');
  const open = () => apps.open();

  async function draft(
    h: AppHost,
    content: { title: string; asset: string; description: string },
  ): Promise<string> {
    const d = await h.engine.createDraft(h.programs.open.id);
    await h.engine.saveDraft(d.reportId, { ...content, cvss_vector: '' });
    return d.reportId;
  }

  async function server(h: AppHost, reportId: string): Promise<Report> {
    return (await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key })).body;
  }

  const description = (p: Page) => p.getByRole('textbox', { name: 'Description', exact: true });

  /** A draft open on screen with the caret in its "Steps to reproduce" section. */
  async function cartDraftInSteps() {
    const { host, page } = await open();
    const id = await draft(host, {
      title: 'Cart tampering',
      asset: 'https://shop.example.com/',
      description: COMPLETE,
    });
    await goTo(page, `#/reports/${id}`);
    const editor = description(page);
    await editor.waitFor();
    await editor.getByText('Steps to reproduce').first().click();
    return { host, page, id, editor };
  }

  it('credentials: each finding with place and kind; Redact and Keep release the draft; the checklist counts', async () => {
    const { host, page } = await open();
    const jwt = fakeJwt();
    const id = await draft(host, {
      title: 'IDOR on orders',
      asset: `https://shop.example.com/ (key ${host.key})`,
      description: `${COMPLETE}\n\nAuthorization: Bearer ${jwt}\n`,
    });
    await goTo(page, `#/reports/${id}`);
    const region = page.getByRole('region', { name: 'Credentials check', exact: true });
    const findings = region.getByRole('list', { name: 'Findings', exact: true });
    const token = findings.getByRole('listitem', {
      name: /^JSON Web Token in Description, line \d+$/,
    });
    const key = findings.getByRole('listitem', {
      name: /^Your API key for this service in Asset, line 1$/,
    });
    await token.waitFor();
    await key.waitFor();
    // The page shows the researcher's own draft, but the findings never repeat the value.
    expect(await findings.innerText()).not.toContain(jwt.slice(8, 40));

    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const checklist = page.getByRole('list', { name: 'Checklist', exact: true });
    await expectText(
      checklist,
      /No credentials in the report Failed\W+2 possible credentials found: /,
    );
    await expectText(checklist, /Image metadata removed Passed/);
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await token.getByRole('button', { name: 'Redact', exact: true }).click();
    await token.waitFor({ state: 'detached' });
    await expectText(description(page), /Authorization: Bearer \[REDACTED:jwt\]/);
    // Said where its button was, which left with the finding, and the focus with it.
    await expectText(
      region.getByRole('status'),
      /^Redacted the credential: the text now says \[REDACTED:jwt\] in its place\.$/,
    );
    expect(await focusWithin(region)).toBe(true);
    await key.getByRole('button', { name: 'Keep', exact: true }).click();
    await until(
      '"Keep" is pressed',
      async () =>
        (await key.getByRole('button', { name: 'Keep' }).getAttribute('aria-pressed')) === 'true',
    );
    await expectText(region, /Every finding is kept on purpose/);
    await until(
      'the draft is sent, redacted',
      async () =>
        (await server(host, id).catch(() => null))?.description.includes('[REDACTED:jwt]') === true,
      20_000,
    );
    const sent = await server(host, id);
    expect(sent.description).not.toContain(jwt);
    expect(sent.asset).toContain(host.key); // kept on purpose
    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    await expectText(checklist, /No credentials in the report Passed/);
    expect((await apps.current?.app.guard.cspViolations()) ?? []).toEqual([]);
  });

  it('credentials: the last one redacted, the check says so and keeps the focus', async () => {
    const { host, page } = await open();
    const request = [
      'POST /api/v2/users/1337/email HTTP/1.1',
      'Host: api.example.com',
      `Authorization: Bearer ${fakeJwt()}`,
      'Content-Type: application/json',
      '',
      '{"email": "attacker@evil.example", "confirm": true}',
    ].join('\n');
    const id = await draft(host, {
      title: 'Email change on another account',
      asset: 'https://api.example.com/',
      description: `${COMPLETE}\n\n\`\`\`http\n${request}\n\`\`\`\n`,
    });
    await goTo(page, `#/reports/${id}`);
    const region = page.getByRole('region', { name: 'Credentials check', exact: true });
    const finding = region.getByRole('listitem', { name: /^JSON Web Token in Description/ });
    // Every frame from the key on: the focus never falls to the page's body (a walk saw it
    // there for about 250 ms, the Redact button disabled while the redaction ran).
    const redact = finding.getByRole('button', { name: 'Redact', exact: true });
    await redact.focus();
    await page.evaluate(() => {
      const g = globalThis as unknown as FocusSampler;
      g.__onBody = 0;
      g.__sampling = true;
      const tick = (): void => {
        if (g.document.activeElement === g.document.body) g.__onBody++;
        if (g.__sampling) g.requestAnimationFrame(tick);
      };
      g.requestAnimationFrame(tick);
    });
    await page.keyboard.press('Enter');
    await finding.waitFor({ state: 'detached' });
    await expectText(region, /Redacted the credential: .*\n?Nothing else was found\./s);
    expect(await focusWithin(region)).toBe(true);
    const onBody = await page.evaluate(() => {
      const g = globalThis as unknown as FocusSampler;
      g.__sampling = false;
      return g.__onBody;
    });
    expect(onBody).toBe(0);
    const redacted = request.replace(/Bearer \S+/, 'Bearer [REDACTED:jwt]');
    await until(
      'the draft redacted, its request otherwise as pasted',
      async () =>
        (await host.engine.getReport(id))?.draft?.content.description.includes(redacted) === true,
    );
  });

  // A walk redacted a token it had just typed and saw the toolbar change: the whole document was
  // replaced, so the editor's own caret went to its end while the page's stayed put.
  it('credentials: a redaction keeps the caret where the researcher was typing', async () => {
    const { host, page } = await open();
    const id = await draft(host, {
      title: 'Password reset token leaks in Referer',
      asset: 'https://*.example.com/reset',
      description: `${COMPLETE}\n\nAffected hosts:\n\n- *.example.com\n- api.example.com\n\nThe reset page sends this to the analytics host:\n\n\`\`\`http\nGET /collect HTTP/1.1\nHost: metrics.example.net\nAuthorization: Bearer ${fakeJwt()}\n\`\`\`\n\nSeen on C:\\Users\\me\\capture.har too.\n`,
    });
    await goTo(page, `#/reports/${id}`);
    const editor = description(page);
    // In a list in the middle of the text, above the request.
    await editor.getByText(/^api\.example\.com/).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (staging too)');
    await redactWithCaretInList(page, editor);
    await until('the draft saved with the words where they were typed', async () =>
      /\* api\.example\.com \(staging too\) and dev\n\nThe reset page/.test(
        (await host.engine.getReport(id))?.draft?.content.description ?? '',
      ),
    );
  });

  it('credentials: a redaction keeps the caret in a list the researcher typed (walk 17)', async () => {
    // A typed list is not marked up as the same list read back from Markdown: replacing it whole
    // put the caret in the heading below the table, and the next keys went there.
    const { host, page } = await open();
    const id = await draft(host, {
      title: 'Role change accepted from any user',
      asset: 'https://*.example.com',
      description: `${COMPLETE}\n\nAffected hosts:\n\n\`\`\`http\nPOST /api/v2/users/1337/roles HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${fakeJwt()}\nContent-Type: application/json\n\n{"role": "admin", "scope": "*.example.com"}\n\`\`\`\n\n| Host | Status |\n| --- | --- |\n| api.example.com | 200 |\n\n## Notes\n\nSeen on C:\\Users\\me\\poc.txt too.\n`,
    });
    await goTo(page, `#/reports/${id}`);
    const editor = description(page);
    await editor.getByText(/^Affected hosts:/).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- *.example.com');
    await page.keyboard.press('Enter');
    await page.keyboard.type('api.example.com (staging too)');
    const region = await redactWithCaretInList(page, editor);
    await until('the draft saved with the words in the typed list', async () => {
      const saved = (await host.engine.getReport(id))?.draft?.content.description ?? '';
      return (
        /api\.example\.com \(staging too\) and dev\n/.test(saved) && /\n## Notes\n/.test(saved)
      );
    });
    // Another token typed: the line about the redaction goes, it would read as if this one had been.
    const said = region.getByRole('status').filter({ hasText: /^Redacted the credential/ });
    expect(await said.count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`GITHUB_TOKEN=${['gh', 'p_'].join('')}${randomFrom(ALNUM, 36)}`);
    await region.getByRole('listitem', { name: /^GitHub token in Description/ }).waitFor();
    await said.waitFor({ state: 'detached' });
  });

  it('credentials: a redaction keeps the caret in a report typed by keyboard, under a typed request and table (walk 18)', async () => {
    // Blocks typed in the editor are not all marked up as the same blocks read back from the
    // saved Markdown, and their number can differ: the range replaced then held the caret, which
    // went to a heading (the toolbar showed "Heading" pressed) while the browser's stayed.
    const { host, page } = await open();
    const id = await draft(host, {
      title: 'Any user can grant themselves admin on *.example.com',
      asset: 'https://api.example.com/api/v2/users/{id}/role',
      description: COMPLETE,
    });
    await goTo(page, `#/reports/${id}`);
    const editor = description(page);
    const keys = page.keyboard;
    await caretAtEndOf(
      editor.getByText('The script runs after login.', { exact: true }),
      'The script runs after login.',
    );
    await keys.press('Enter');
    await keys.press('Enter');
    await keys.type('Every tenant under *.example.com checks only the login. Tested hosts:');
    await keys.press('Enter');
    await keys.type('- acme.example.com (production)');
    await keys.press('Enter');
    await keys.type('globex.example.com');
    await keys.press('Enter');
    await keys.press('Enter');
    await keys.type('As user 1337, send:');
    await keys.press('Enter');
    await keys.type('```http');
    await keys.press('Enter');
    const request = [
      'PATCH /api/v2/users/1337/role HTTP/1.1',
      'Host: api.example.com',
      `Authorization: Bearer ${fakeJwt()}`,
      'Content-Type: application/json',
      '',
      '{"role": "admin", "user_id": 1337}',
    ];
    for (const [i, line] of request.entries()) {
      await keys.type(line);
      if (i < request.length - 1) await keys.press('Enter');
    }
    for (let i = 0; i < 3; i++) await keys.press('Enter');
    await keys.type(
      'The PoC is saved at C:\\Users\\alice\\AppData\\Local\\Temp\\poc.html and replays the request.',
    );
    await keys.press('Enter');
    for (const row of [
      '| Account | Role before | Role after |',
      '| --- | --- | --- |',
      '| 1337 | user | admin |',
    ]) {
      await keys.type(row);
      await keys.press('Enter');
    }
    await until('the typed report saved', async () =>
      /\| 1337 \| user \| admin \|/.test(
        (await host.engine.getReport(id))?.draft?.content.description ?? '',
      ),
    );
    // The caret in the middle of the sentence after the request, then Redact.
    await caretAtEndOf(editor.getByText(/^The PoC is saved at/), 'replays the request.');
    for (let i = 0; i < ' the request.'.length; i++) await keys.press('ArrowLeft');
    await keys.type(' (once)');
    const region = page.getByRole('region', { name: 'Credentials check', exact: true });
    const finding = region.getByRole('listitem', { name: /^JSON Web Token in Description/ });
    await finding.getByRole('button', { name: 'Redact', exact: true }).click();
    await finding.waitFor({ state: 'detached' });
    await expectText(editor, /Bearer \[REDACTED:jwt\]/);
    await backToEditorByKeyboard(page, editor);
    await keys.type(' [typed here]');
    await until('the keys saved where the caret was', async () =>
      /replays \(once\) \[typed here\] the request\./.test(
        (await host.engine.getReport(id))?.draft?.content.description ?? '',
      ),
    );
  });

  it('credentials: Show selects a finding of the description in the editor, which shows no line numbers (walks 17, 19)', async () => {
    const { host, page } = await open();
    const token = fakeJwt();
    // The response after the request: more than the token's length follows it in its block.
    const response = `HTTP/1.1 200 OK\nContent-Type: application/json\n\n{"id": 1337, "email": "alice@acme.example.com", "role": "admin", "tenant": "acme", "updated_at": "2026-11-30T10:00:00Z"}`;
    const id = await draft(host, {
      title: 'Role change accepted from any user',
      asset: 'https://api.example.com',
      description: `${COMPLETE}\n\nEvery tenant under *.example.com, from C:\\Users\\alice\\poc.html:\n\n\`\`\`http\nPATCH /api/v2/users/1337/role HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${token}\nContent-Type: application/json\n\n{"role": "admin", "user_id": 1337}\n\n${response}\n\`\`\`\n`,
    });
    await goTo(page, `#/reports/${id}`);
    const editor = description(page);
    const region = page.getByRole('region', { name: 'Credentials check', exact: true });
    const finding = region.getByRole('listitem', {
      name: /^JSON Web Token in Description, line \d+$/,
    });
    const show = finding.getByRole('button', { name: 'Show', exact: true });
    const notInText = finding.getByRole('status');
    await show.click();
    const selected = (): Promise<string> =>
      page.evaluate(() =>
        String((globalThis as unknown as { getSelection(): unknown }).getSelection()),
      );
    await until(
      'the token selected in the editor, with the focus',
      async () => (await focusWithin(editor)) && (await selected()) === token,
    );
    // Found, so no line says the text changed since the check.
    expect(await notInText.count()).toBe(0);
    // The token's start and the header that names it are in the pane's view, not above its edge.
    const inView = await page.evaluate(() => {
      type Box = { top: number; bottom: number };
      type El = {
        getBoundingClientRect(): Box;
        parentElement: El | null;
        scrollHeight: number;
        clientHeight: number;
      };
      const g = globalThis as unknown as {
        getSelection(): {
          getRangeAt(i: number): {
            getClientRects(): Box[];
            startContainer: { parentElement: El | null };
          };
        };
        getComputedStyle(e: El): { overflowY: string };
      };
      const range = g.getSelection().getRangeAt(0);
      let pane = range.startContainer.parentElement;
      while (
        pane &&
        !(
          /auto|scroll/.test(g.getComputedStyle(pane).overflowY) &&
          pane.scrollHeight > pane.clientHeight
        )
      )
        pane = pane.parentElement;
      const first = range.getClientRects()[0];
      const box = pane?.getBoundingClientRect();
      return !!first && !!box && first.top - 20 >= box.top && first.bottom <= box.bottom;
    });
    expect(inView).toBe(true);

    // The token deleted, Show pressed before the check ran again: the text at the finding's place
    // is another's (walk 19 saw the 229 characters after the token selected, and nothing said).
    await page.keyboard.press('Backspace');
    await show.click();
    await expectText(
      notInText,
      /^Not in the text as it is now: the check runs again after the next save\.$/,
    );
    expect(await selected()).toBe('');
    // The check runs again: the finding goes (a scheme word alone is none), its line with it; back
    // with Undo, it says nothing of what was (walk 19: the line stayed).
    await finding.waitFor({ state: 'detached' });
    await editor.getByText(/^Every tenant under/).click();
    await page.keyboard.press('ControlOrMeta+Z');
    await finding.waitFor();
    expect(await notInText.count()).toBe(0);

    // Undone at once, before the deletion was saved: the text is the one the check read, so no new
    // answer comes, and the line goes all the same (walk 20 saw it stand over the token).
    await show.click();
    await until('the token selected', async () => (await selected()) === token);
    await page.keyboard.press('Backspace');
    await show.click();
    await notInText.waitFor();
    await editor.getByText(/^Every tenant under/).click();
    await page.keyboard.press('ControlOrMeta+Z');
    await notInText.waitFor({ state: 'detached' });
    expect(await finding.count()).toBe(1);

    // Show, then Redact, then back by keyboard: the mark is not selected, the keys go after it
    // (walk 19: the first key typed replaced `[REDACTED:jwt]`).
    await show.click();
    await until('the token selected again', async () => (await selected()) === token);
    await finding.getByRole('button', { name: 'Redact', exact: true }).click();
    await finding.waitFor({ state: 'detached' });
    await expectText(editor, /Bearer \[REDACTED:jwt\]/);
    await backToEditorByKeyboard(page, editor);
    expect(await selected()).toBe('');
    await page.keyboard.type('!');
    await until('the key saved after the mark', async () =>
      /Authorization: Bearer \[REDACTED:jwt\]!\n/.test(
        (await host.engine.getReport(id))?.draft?.content.description ?? '',
      ),
    );
  });

  it('credentials in files: the whole page never shows a value while the check lists them', async () => {
    const { host, page } = await open();
    const secrets = vendorShapes();
    const har = JSON.parse(realFile('har', 'mitmproxy-chrome.har').toString()) as {
      log: { entries: { request: { cookies: { name: string; value: string }[] } }[] };
    };
    const cookies = har.log.entries[2]?.request.cookies.map((c) => c.value) ?? [];
    const id = await draft(host, {
      title: 'Session leak',
      asset: 'https://app.example.com',
      description: COMPLETE,
    });
    await host.engine.attachFiles(id, [
      {
        file: await host.tokenFor(
          await host.file('capture.har', realFile('har', 'mitmproxy-chrome.har')),
        ),
      },
      {
        file: await host.tokenFor(
          await host.file('prod.env', secrets.map((s) => s.line).join('\n')),
        ),
      },
    ]);
    await goTo(page, `#/reports/${id}`);
    const region = page.getByRole('region', { name: 'Credentials check', exact: true });
    await region
      .getByRole('listitem', { name: /in capture\.har, entry 3, request cookie “SID”$/ })
      .waitFor();
    await region
      .getByRole('listitem', { name: /in prod\.env, line \d+$/ })
      .first()
      .waitFor();
    // Everything the page holds: text, attributes (tooltips, labels), the whole DOM.
    const html = await page.content();
    const text = await page.locator('body').innerText();
    const values = [...secrets.map((s) => s.secret), ...cookies.filter((c) => c.length >= 12)];
    const shown = values.filter((v) => html.includes(v) || text.includes(v));
    console.log(`values on the page while the check is shown: ${shown.length}/${values.length}`);
    expect(shown).toEqual([]);
  });

  it('HTTP evidence: a pasted curl command and a dropped HAR become redacted code blocks', async () => {
    const { host, page, id, editor } = await cartDraftInSteps();
    const s = fixtureSecrets();
    const [curl] = curlFixtures(s);
    await pasteInto(editor, { 'text/plain': curl?.command ?? '' });
    await expectText(editor, /POST \/api\/cart\?item=7 HTTP\/1\.1/);
    await expectText(editor, /authorization: Bearer \[REDACTED:jwt\]/);
    await expectText(editor, /Cookie: \[REDACTED:cookie\]/);

    const har = await host.file('checkout.har', harFixture(s, 4000));
    await host.dropFiles(editor, [
      { path: har, bytes: harFixture(s, 4000), type: 'application/json' },
    ]);
    await expectText(editor, /_?From a HAR file\. Long bodies are cut\./);
    const evidence = page.getByRole('list', { name: 'Evidence', exact: true });
    await expectText(evidence, /checkout\.redacted\.http/);
    await until(
      'sent',
      async () =>
        (await server(host, id).catch(() => null))?.description.includes('From a HAR file') ===
        true,
      20_000,
    );
    const sent = await server(host, id);
    expect(sent.description).not.toContain(s.jwt);
    expect(sent.description).not.toContain(s.cookie);
    expect(sent.description).toContain('```http');
  });

  it('HTTP evidence that cannot be read: a message says what and where, and nothing is lost', async () => {
    const { host, page, id, editor } = await cartDraftInSteps();
    const s = fixtureSecrets();
    // A HAR cut short (a copy that stopped early): recognised, not readable.
    const har = harFixture(s);
    const cut = har.slice(0, Math.floor(har.length / 2));
    await pasteInto(editor, { 'text/plain': cut });
    const alert = page.getByRole('alert').filter({ hasText: 'Could not read' });
    await expectText(
      alert,
      /Could not read the pasted HAR file: the JSON ends early \(the file looks cut\) at line \d+, column \d+\. It is kept in the description as text\./,
    );
    await expectText(editor, /Could not read this HAR file/);
    await expectText(editor, /"creator"/);
    // A Burp export cut inside an item, dropped as a file: kept as an evidence file.
    const burp =
      '<?xml version="1.0"?>\n<items burpVersion="2024.1">\n  <item>\n    <url><![CDATA[https://shop.example.com/]]></url>\n';
    const path = await host.file('cut-export.xml', burp);
    // Dropped near the top: the kept HAR text makes the editor taller than the window, and a
    // trusted drop lands where the pointer is.
    await host.dropFiles(editor, [{ path, bytes: burp, type: 'text/xml' }], { x: 24, y: 12 });
    await expectText(
      alert,
      /Could not read "cut-export\.xml" \(Burp Suite export\): the XML is broken at line \d+, column \d+/,
    );
    await expectText(alert, /It is kept as the evidence file cut-export\.xml\./);
    const evidence = page.getByRole('list', { name: 'Evidence', exact: true });
    await expectText(evidence, /cut-export\.xml/);
    await until(
      'sent',
      async () =>
        (await server(host, id).catch(() => null))?.description.includes(
          'Could not read this HAR',
        ) === true,
      20_000,
    );
    expect((await server(host, id)).description).not.toContain(s.jwt);
  });

  it('scope: the asset shows the scope line it matches, or warns', async () => {
    const { host, page } = await open();
    await host.sandbox.patchProgram(host.programs.open.id, {
      policy: {
        scope:
          '- `*.shop.example.com`\n- https://api.example.com/v2\n- Office range 198.51.100.0/24',
        exclusions: '- legacy.shop.example.com (retired)\n- Denial of service',
      },
    });
    await host.engine.syncNow();
    await until(
      'the new policy is mirrored',
      async () =>
        (
          (await host.engine.getProgram(host.programs.open.id)) as { scope: string } | null
        )?.scope.includes('shop.example.com') === true,
      20_000,
    );
    const id = await draft(host, { title: 'Scope', asset: '', description: COMPLETE });
    await goTo(page, `#/reports/${id}`);
    const asset = page.getByRole('textbox', { name: 'Asset', exact: true });
    const hint = page.getByRole('status', { name: 'Scope', exact: true });
    await asset.fill('https://eu.shop.example.com/cart');
    await expectText(hint, /^In scope: “?\*\.shop\.example\.com”?$/);
    await asset.fill('legacy.shop.example.com');
    await expectText(
      hint,
      /^Warning: this asset matches an exclusion: “?legacy\.shop\.example\.com \(retired\)”?$/,
    );
    await asset.fill('https://www.example.org/');
    await expectText(
      hint,
      /^Warning: this asset matches nothing in the program's scope\. Check the asset for a typing error, or read the program's scope in its policy\.$/,
    );
    expect(await hint.getByRole('link', { name: 'policy', exact: true }).getAttribute('href')).toBe(
      `#/programs/${host.programs.open.id}/scope`,
    );
    await asset.fill('198.51.100.20');
    await expectText(hint, /^In scope: “?Office range 198\.51\.100\.0\/24”?$/);
    // A hint, never a block: the draft saves with an out-of-scope asset.
    await asset.fill('https://www.example.org/');
    await until(
      'saved',
      async () => (await server(host, id).catch(() => null))?.asset === 'https://www.example.org/',
      20_000,
    );
    // The link lands on the program's scope, not at the top of its page: the heading in view,
    // with the keyboard focus.
    await hint.getByRole('link', { name: 'policy', exact: true }).click();
    const scope = page.getByRole('heading', { name: 'Scope', exact: true, level: 3 });
    await until('the scope heading has the focus', () => hasFocus(scope));
    const box = await scope.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.y >= 0 && box.y < viewport.height / 2).toBe(true);
  });

  it('duplicate hint: the checklist lists own close reports of the same program with their status', async () => {
    const { host, page } = await open();
    const first = await draft(host, {
      title: 'IDOR on order details endpoint',
      asset: 'https://shop.example.com/api/orders/1',
      description: COMPLETE,
    });
    await host.engine.submit(first);
    await draft(host, {
      title: 'Clickjacking on login',
      asset: 'https://login.example.com/',
      description: COMPLETE,
    });
    const id = await draft(host, {
      title: 'Order details IDOR',
      asset: 'https://shop.example.com/api/orders/2',
      description: COMPLETE,
    });
    await until(
      'submitted',
      async () => (await server(host, first).catch(() => null))?.status === 'triaging',
      20_000,
    );
    await host.engine.syncNow();
    await goTo(page, `#/reports/${id}`);
    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const similar = page.getByRole('list', { name: 'Similar reports', exact: true });
    await expectText(
      similar,
      /IDOR on order details endpoint Triaging — same asset; shares "details", "order", "idor" \(88% of the title\)/,
    );
    expect(await similar.getByRole('listitem').count()).toBe(1);
    await similar
      .getByRole('link', { name: 'IDOR on order details endpoint', exact: true })
      .click();
    await page
      .getByRole('heading', { name: 'IDOR on order details endpoint', exact: true })
      .waitFor();
  });

  it('images: a PNG shows inline from the stripped local copy, in the editor and on the report page; SVG never', async () => {
    const { host, page } = await open();
    const id = await draft(host, {
      title: 'Leaky screenshot',
      asset: 'https://shop.example.com/',
      description: COMPLETE,
    });
    const png = await host.file('screenshot.png', pngWithGps());
    const svg = await host.file('diagram.svg', hostileSvg());
    await host.engine.attachFiles(id, [
      { file: await host.tokenFor(png), insertAt: COMPLETE.indexOf('## Expected') },
    ]);
    await host.engine.attachFiles(id, [
      { file: await host.tokenFor(svg), insertAt: COMPLETE.indexOf('## Expected') },
    ]);
    await goTo(page, `#/reports/${id}`);
    const image = description(page).getByRole('img', { name: 'screenshot.png', exact: true });
    await image.waitFor();
    expect(
      await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(16);
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // The SVG stays a placeholder (ProseMirror's own separator images have no source).
    expect(await description(page).locator('img[src]').count()).toBe(1);
    await expectText(description(page), /\[image: diagram\.svg\]/);
    await until(
      'uploaded',
      async () =>
        Object.keys((await server(host, id).catch(() => null))?.attachments ?? {}).length === 2,
      20_000,
    );
    const fileId =
      Object.entries((await server(host, id)).attachments).find(
        ([, a]) => a.name === 'screenshot.png',
      )?.[0] ?? '';
    const res = await fetch(new URL(`/api/reports/${id}/files/${fileId}`, host.sandbox.url), {
      headers: { authorization: `Bearer ${host.key}` },
    });
    expect(Buffer.from(await res.arrayBuffer()).includes(gpsBytes())).toBe(false);
    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    await expectText(
      page.getByRole('list', { name: 'Checklist', exact: true }),
      /Image metadata removed Passed — EXIF, GPS, XMP, IPTC, comments and thumbnails removed from 1 image; orientation kept\./,
    );
    await page.getByRole('button', { name: 'Submit report', exact: true }).click();
    const submission = page.getByRole('region', { name: 'Submission', exact: true });
    const shown = submission.getByRole('img', { name: 'screenshot.png', exact: true });
    await shown.waitFor({ timeout: 20_000 });
    expect(
      await shown.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(16);
    expect(await submission.locator('img[src]').count()).toBe(1);
    // Nothing is fetched but the app's own bundle: the images are data: URLs of checked bytes.
    expect(
      (apps.current?.app.guard.requests ?? []).filter((u) => !u.startsWith(host.rendererBase)),
    ).toEqual([]);
    expect((await apps.current?.app.guard.cspViolations()) ?? []).toEqual([]);
  });

  it('payouts: every payout with its steps, totals, and the CSV where the user saves it', async () => {
    const { host, page } = await open();
    const id = await draft(host, {
      title: 'SQL injection in search',
      asset: 'https://shop.example.com/search',
      description: COMPLETE,
    });
    await host.engine.submit(id);
    await until(
      'submitted',
      async () => (await server(host, id).catch(() => null))?.status === 'triaging',
      20_000,
    );
    await host.sandbox.act(id, { actor: 'founder', status: 'accepted', message: 'Valid.' });
    await host.sandbox.payout(id, { status: 'approving', amount_cents: 125_000 });
    await host.sandbox.payout(id, { status: 'transferred' });
    await host.engine.syncNow();
    await page
      .getByRole('navigation', { name: 'Main', exact: true })
      .getByRole('link', { name: 'Payouts', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Payouts', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Payouts', exact: true });
    await expectText(table, /SQL injection in search/, 20_000);
    await expectText(table, /\$1,250\.00/);
    await expectText(
      table.getByRole('list', { name: 'Steps', exact: true }),
      /Approved .*Transferred/s,
    );
    await expectText(
      page.getByRole('table', { name: 'Totals by status', exact: true }),
      /Transferred\s+1\s+\$1,250\.00/,
    );
    await expectText(
      page.getByRole('table', { name: 'Totals by program', exact: true }),
      /1\s+\$1,250\.00/,
    );
    const csv = join(host.dataDir, 'payouts.csv');
    host.saveInDialog(csv);
    await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
    await expectText(
      page.getByRole('status').filter({ hasText: 'Saved payouts' }),
      /Saved payouts to .*payouts\.csv/,
    );
    const lines = (await readFile(csv, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'report_id,title,program,status,amount_usd,approved_at,transferred_at,received_at,failed_at',
    );
    expect(lines[1]).toMatch(
      new RegExp(`^${id},SQL injection in search,.*,Transferred,1250\\.00,\\d{4}-`),
    );
    await expectNoText(page.getByRole('main'), /No payouts yet/);
  });
});

/**
 * With the caret at the end of a list item, redacts the draft's JWT; the toolbar still shows the
 * list the caret is in, and " and dev" is typed where the keys stopped. Returns the check's region.
 */
async function redactWithCaretInList(page: Page, editor: Locator): Promise<Locator> {
  const list = page.getByRole('button', { name: 'Bulleted list', exact: true });
  expect(await list.getAttribute('aria-pressed')).toBe('true');
  const region = page.getByRole('region', { name: 'Credentials check', exact: true });
  const finding = region.getByRole('listitem', { name: /^JSON Web Token in Description/ });
  await finding.getByRole('button', { name: 'Redact', exact: true }).click();
  await finding.waitFor({ state: 'detached' });
  await expectText(editor, /Bearer \[REDACTED:jwt\]/);
  expect(await list.getAttribute('aria-pressed')).toBe('true');
  await backToEditorByKeyboard(page, editor);
  expect(await list.getAttribute('aria-pressed')).toBe('true');
  await page.keyboard.type(' and dev');
  return region;
}

/**
 * Back to the editor by keyboard after a redaction, as a person goes (Shift+Tab from the
 * credentials check): the toolbar then showed "Heading" pressed until an arrow key was pressed
 * (walk 18), the editor's caret having gone to a heading.
 */
async function backToEditorByKeyboard(page: Page, editor: Locator): Promise<void> {
  for (let i = 0; i < 12 && !(await focusWithin(editor)); i++)
    await page.keyboard.press('Shift+Tab');
  expect(await focusWithin(editor)).toBe(true);
  await page.waitForTimeout(300);
  const heading = page.getByRole('button', { name: 'Heading', exact: true });
  expect(await heading.getAttribute('aria-pressed')).toBe('false');
}

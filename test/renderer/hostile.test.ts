import { randomUUID } from '../support/random';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { TEMPLATE_HEADINGS } from '../../src/shared/api';
import { keepFailureShot, openApp, startSuite, type AppPage, type Suite } from './support/app';
import { AppHost } from '../app/host';
import { expectText, nav, until } from './support/ui';
import {
  cancelLinkQuestion,
  LINK_DIALOG,
  HOSTILE_LINK_TEXTS,
  SAFE_LINK,
  SAFE_TEXT,
  clickHostileLinks,
  expectInert,
  scanDom,
  xssCorpus,
} from './support/xss';

/**
 * Content from the server is hostile: program policies, thread messages, report descriptions
 * (also inside the Milkdown editor and its link tooltip) hold a corpus of XSS payloads. It must
 * render inert: no script runs, no request leaves the app, nothing navigates, link schemes are
 * allow-listed, and clicking a dangerous link does nothing at all.
 */
describe('renderer: hostile content renders inert', () => {
  let suite: Suite;
  let host: AppHost;
  let app: AppPage;
  let page: Page;
  let reportId: string;
  let draftId: string;
  let programName: string;
  const HOSTILE_TITLE = `<img src=x onerror="window.__pwned='title'"> Hostile report`;
  const DRAFT_TITLE = 'Hostile draft';

  const described = (marker: string): string =>
    TEMPLATE_HEADINGS.map((h) => `## ${h}\n\n${xssCorpus(`${marker} ${h}`)}`).join('\n\n');

  beforeAll(async () => {
    suite = await startSuite();
    host = await AppHost.open();
    const program = host.programs.open.id;
    const policy = xssCorpus('policy');
    await host.sandbox.patchProgram(program, {
      policy: {
        scope: policy,
        exclusions: policy,
        rules: policy,
        eligibility: policy,
        disclosure: policy,
      },
    });

    // A submitted report with the corpus in its description, then messages and a decision.
    reportId = randomUUID();
    const put = await host.sandbox.api<Report>('PUT', `/api/reports/${reportId}`, {
      token: host.key,
      body: {
        program_id: program,
        title: HOSTILE_TITLE,
        asset: 'javascript:window.__pwned="asset"',
        description: described('submission'),
        cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
        revision: 0,
      },
    });
    expect(put.status).toBe(200);
    const submitted = await host.sandbox.api<Report>('POST', `/api/reports/${reportId}/submit`, {
      token: host.key,
      body: { revision: put.body.revision },
    });
    expect(submitted.status).toBe(200);
    await host.sandbox.act(reportId, {
      actor: 'agent',
      status: 'needs_info',
      message: xssCorpus('agent'),
    });
    await host.sandbox.act(reportId, {
      actor: 'agent',
      status: 'triaging',
      message: xssCorpus('agent-2'),
    });
    await host.sandbox.act(reportId, {
      actor: 'founder',
      status: 'rejected',
      message: xssCorpus('founder'),
    });

    await host.signIn();
    await host.engine.syncNow();
    await until('the hostile report mirrored with its thread', async () => {
      const view = await host.engine.getReport(reportId);
      return view?.report?.status === 'rejected' && view.messages.length >= 3;
    });
    await until('the hostile policy mirrored', async () =>
      ((await host.engine.getProgram(program))?.scope ?? '').includes('Marker policy'),
    );

    programName = (await host.engine.getProgram(program))?.name ?? program;

    // A local draft holding the corpus, as if pasted by the researcher.
    const draft = await host.engine.createDraft(program);
    draftId = draft.reportId;
    await host.engine.saveDraft(draftId, {
      title: DRAFT_TITLE,
      asset: 'https://app.example.com/',
      description: described('draft'),
      cvss_vector: '',
    });

    app = await openApp(suite, host);
    page = app.page;
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
  });
  afterEach(async (ctx) => {
    await keepFailureShot(page, 'hostile', ctx.task);
  });
  afterAll(async () => {
    await app?.close();
    await host?.close();
    await suite?.close();
  });

  it('program policy: payloads inert, dangerous links dead, the https link goes to openExternal', async () => {
    await page
      .getByRole('list', { name: 'Programs', exact: true })
      .getByRole('link', { name: programName, exact: true })
      .click();
    const policy = page.getByRole('region', { name: 'Policy', exact: true });
    await expectText(policy, /Marker policy/);
    await expectInert(app, host);
    // Allowed schemes still render as links: the allow-list keeps, it does not only remove.
    const hrefs = await policy
      .getByRole('link')
      .evaluateAll((links) =>
        links.map((a) =>
          (a as unknown as { getAttribute(n: string): string | null }).getAttribute('href'),
        ),
      );
    expect(hrefs).toContain(SAFE_LINK);
    expect(hrefs).toContain('mailto:security@example.com');
    expect(hrefs).toContain('https://evil.example/auto');
    const clicked = await clickHostileLinks(page, policy);
    expect(clicked).toBeGreaterThan(0);
    await expectInert(app, host);
    expect(host.external).toEqual([]);

    // The allowed link asks first, showing its whole address; only "Open in browser" opens it.
    await policy.getByText(SAFE_TEXT, { exact: true }).first().click();
    const question = page.getByRole('dialog', { name: LINK_DIALOG, exact: true });
    await expectText(question.getByLabel('Address', { exact: true }), SAFE_LINK);
    expect(host.external).toEqual([]);
    await question.getByRole('button', { name: 'Open in browser', exact: true }).click();
    await until('openExternal with the safe link', () => host.external.includes(SAFE_LINK));
    await expectInert(app, host);
  });

  it('report page: title, submission, thread and decision render inert', async () => {
    await nav(page, 'Reports').click();
    await page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('link', { name: /Hostile report/ })
      .first()
      .click();
    await page.getByRole('heading', { name: HOSTILE_TITLE, exact: true }).waitFor();
    const messages = page.getByRole('region', { name: 'Messages', exact: true });
    await expectText(messages, /Marker agent:/);
    await expectText(messages, /Marker agent-2:/);
    await expectText(messages, /Marker founder:/);
    await expectText(
      page.getByRole('region', { name: 'Submission', exact: true }),
      /Marker submission/,
    );
    await expectInert(app, host);
    const before = host.external.length;
    expect(await clickHostileLinks(page, messages)).toBeGreaterThan(0);
    await clickHostileLinks(page, page.getByRole('region', { name: 'Submission', exact: true }));
    await clickHostileLinks(page, page.getByRole('region', { name: 'Decision', exact: true }));
    await expectInert(app, host);
    expect(host.external.length).toBe(before);
  });

  it('draft editor and its link tooltip: payloads inert, no live javascript: link', async () => {
    await nav(page, 'Reports').click();
    await page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('link', { name: new RegExp(`^${DRAFT_TITLE}`) })
      .first()
      .click();
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    await expectText(description, /Marker draft Steps to reproduce/);
    await expectInert(app, host);
    // Put the caret on each link (the tooltip shows its target) and hover it.
    let seen = 0;
    for (const text of HOSTILE_LINK_TEXTS) {
      const target = description.getByText(text, { exact: true });
      if ((await target.count()) === 0) continue;
      await target.first().click();
      await target.first().hover();
      await page.waitForTimeout(150);
      seen++;
      await expectInert(app, host);
      // Anything the tooltip offers to click must do nothing for a dangerous target.
      await target.first().click({ modifiers: ['Control'] });
      await cancelLinkQuestion(page);
      const tooltipLinks = page.locator(
        '[role="tooltip"] a, [class*="tooltip"] a, [class*="link-preview"] a',
      );
      for (let i = 0; i < (await tooltipLinks.count()); i++) {
        if (await tooltipLinks.nth(i).isVisible()) await tooltipLinks.nth(i).click();
      }
      await expectInert(app, host);
    }
    expect(seen).toBeGreaterThan(0);
    // Ctrl+click is how the editor opens a link: only the allowed one reaches openExternal,
    // after the question with its whole address.
    const opened = host.external.length;
    await description
      .getByText(SAFE_TEXT, { exact: true })
      .first()
      .click({ modifiers: ['Control'] });
    await page
      .getByRole('dialog', { name: LINK_DIALOG, exact: true })
      .getByRole('button', { name: 'Open in browser', exact: true })
      .click();
    await until('openExternal from the editor', () => host.external.length > opened);
    expect(host.external.slice(opened)).toEqual([SAFE_LINK]);
    expect(host.external.filter((url) => url !== SAFE_LINK)).toEqual([]);
    expect(app.guard.pageErrors).toEqual([]);
  });

  it('editing the draft keeps the payloads as the researcher wrote them (allow-listing is at render time)', async () => {
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    await description
      .getByText(/Marker draft Security impact/)
      .first()
      .click();
    await page.waitForTimeout(300);
    await page.keyboard.press('End');
    await page.keyboard.type(' edited');
    await until('the edit saved', async () =>
      ((await host.engine.getReport(draftId))?.draft?.content.description ?? '').includes(
        ' edited',
      ),
    );
    await expectInert(app, host);
    // Markdown escapes may change; the targets themselves must survive the editor's round trip.
    const saved = (
      (await host.engine.getReport(draftId))?.draft?.content.description ?? ''
    ).replace(/\\(.)/g, '$1');
    const kept = [
      "javascript:window.__pwned='md-link'",
      "JaVaScRiPt:window.__pwned='md-case'",
      'data:text/html;base64,',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      // A reference link may come back inline: its target is what must survive.
      "javascript:window.__pwned='reference'",
      '![pwn-image](https://evil.example/pixel.png)',
      '![pwn-svg](data:image/svg+xml;base64,',
      `[${SAFE_TEXT}](${SAFE_LINK})`,
    ];
    expect(kept.filter((text) => !saved.includes(text))).toEqual([]);
    expect(app.guard.consoleErrors.filter((e) => /RangeError|TypeError/.test(e))).toEqual([]);
  });

  it('control: the same checks catch live markup when it is there', async () => {
    // Markup a vulnerable renderer would produce, put in by hand after every test above.
    await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: { body: { insertAdjacentHTML(where: string, html: string): void } };
        }
      ).document;
      d.body.insertAdjacentHTML(
        'beforeend',
        '<a href="javascript:void 0">a</a><img src="x" onerror="window.__pwned=1"><a href="data:text/html,x">d</a>' +
          '<div style="background:url(https://evil.example/a)"></div><iframe src="about:blank"></iframe>',
      );
    });
    const problems = await page.evaluate(scanDom, { base: host.rendererBase });
    expect(problems.join('\n')).toMatch(/href="javascript:void 0"/);
    expect(problems.join('\n')).toMatch(/event handler onerror/);
    expect(problems.join('\n')).toMatch(/href="data:text\/html,x"/);
    expect(problems.join('\n')).toMatch(/style with a URL/);
    expect(problems.join('\n')).toMatch(/<iframe> element/);
    await until('the CSP report of the blocked handler', async () =>
      (await app.guard.cspViolations()).some((v) => v.directive.startsWith('script-src')),
    );
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasImageMetadata } from '../../src/engine/evidence/images';
import { burpFixture, fixtureSecrets, harFixture } from '../evidence/fixtures/http';
import { gpsBytes, hostileSvg, pngWithGps } from '../evidence/fixtures/images';
import { fakeJwt, randomFrom } from '../support/fake-secrets';
import { realFile } from '../support/real-corpus';
import { COMPLETE_DESCRIPTION, harnessPerTest, server, serverFile } from './harness';
import { completeDraft } from '../support/drafts';

/**
 * Through the engine against the sandbox: nothing with an unresolved credential leaves
 * (saves, uploads, messages), redaction and "keep" release it, images lose their metadata before
 * upload, HTTP evidence lands redacted, the duplicate hint and the payouts view read the mirror.
 */
const CONTENT = completeDraft('IDOR on order details', 'https://shop.example.com/api/orders');

describe('evidence that never leaks', () => {
  const open = harnessPerTest();

  it('holds a save with a JWT until it is redacted; the server never sees the token', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.session.drain();
    const jwt = fakeJwt();
    const leaky = `${COMPLETE_DESCRIPTION}\n\nAuthorization: Bearer ${jwt}\n`;
    await x.engine.calls.saveDraft(draft.reportId, { ...CONTENT, description: leaky });
    await x.engine.session.drain();
    expect((await server(x, draft.reportId)).description).not.toContain(jwt);
    const held = (await x.engine.calls.getReport(draft.reportId))?.outbox.find(
      (e) => e.state === 'parked',
    );
    expect(held?.error?.code).toBe('secrets_found');
    expect(held?.error?.advice).toContain('Description');
    expect(JSON.stringify(held)).not.toContain(jwt);

    const scan = await x.engine.calls.scanEvidence(draft.reportId);
    expect(scan.open).toBe(1);
    const [finding] = scan.findings;
    expect(finding).toMatchObject({
      kind: 'jwt',
      place: { kind: 'field', field: 'description' },
      kept: false,
    });
    expect(JSON.stringify(scan)).not.toContain(jwt);
    const checklist = await x.engine.calls.getChecklist(draft.reportId);
    expect(checklist.items.find((i) => i.id === 'credentials_found')).toMatchObject({
      ok: false,
      label: 'No credentials in the report',
    });
    expect(checklist.items.find((i) => i.id === 'credentials_found')?.detail).toMatch(
      /^1 possible credential found: Description, line \d+\.$/,
    );

    const after = await x.engine.calls.redactFindings(draft.reportId, [finding?.id ?? '']);
    expect(after.open).toBe(0);
    await x.engine.session.drain();
    const sent = (await server(x, draft.reportId)).description;
    expect(sent).toContain('Authorization: Bearer [REDACTED:jwt]');
    expect(sent).not.toContain(jwt);
    expect(
      (await x.engine.calls.getChecklist(draft.reportId)).items.find(
        (i) => i.id === 'credentials_found',
      )?.ok,
    ).toBe(true);
  });

  it('always finds the researcher’s own key; a kept finding is sent and the choice survives a restart', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, {
      ...CONTENT,
      asset: `${CONTENT.asset} (key ${x.key})`,
    });
    await x.engine.session.drain();
    expect(JSON.stringify(await server(x, draft.reportId))).not.toContain(x.key);
    const [finding] = (await x.engine.calls.scanEvidence(draft.reportId)).findings;
    expect(finding).toMatchObject({ kind: 'api-key', label: 'Your API key for this service' });
    await x.engine.calls.keepFinding(draft.reportId, finding?.id ?? '', true);
    await x.engine.session.drain();
    expect((await server(x, draft.reportId)).asset).toContain(x.key);
    await x.restart();
    const again = await x.engine.calls.scanEvidence(draft.reportId);
    expect(again.findings[0]?.kept).toBe(true);
    expect(again.open).toBe(0);
  });

  it('uploads a redacted copy of a text evidence file, never the original', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    const cookie = `sid=${randomFrom('abcdef0123456789', 32)}`;
    const path = await x.file('session.log', `GET /api/orders/7 HTTP/1.1\nCookie: ${cookie}\n`);
    const [file] = await x.engine.calls.attachFiles(draft.reportId, [{ path }]);
    await x.engine.session.drain();
    expect((await server(x, draft.reportId)).attachments[file?.fileId ?? '']).toBeUndefined();
    const scan = await x.engine.calls.scanEvidence(draft.reportId);
    expect(scan.findings.map((f) => [f.kind, f.where])).toEqual([
      ['cookie', 'session.log, line 2'],
    ]);
    await x.engine.calls.redactFindings(
      draft.reportId,
      scan.findings.map((f) => f.id),
    );
    await x.engine.session.drain();
    const uploaded = await serverFile(x, draft.reportId, file?.fileId ?? '');
    expect(uploaded.toString()).toBe('GET /api/orders/7 HTTP/1.1\nCookie: [REDACTED:cookie]\n');
    expect(await readFile(path, 'utf8')).toContain(cookie); // the researcher's own file is untouched
  });

  it('holds a reply with a secret until it is redacted', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.submit(draft.reportId);
    await x.engine.session.drain();
    const token = `${['gh', 'p_'].join('')}${randomFrom('ABCDEFabcdef0123456789', 36)}`;
    await x.engine.calls.postMessage(draft.reportId, {
      body: `My token was ${token}`,
      filePaths: [],
    });
    await x.engine.session.drain();
    const scan = await x.engine.calls.scanEvidence(draft.reportId);
    expect(scan.findings.map((f) => [f.kind, f.place.kind])).toEqual([['github-token', 'message']]);
    await x.engine.calls.redactFindings(
      draft.reportId,
      scan.findings.map((f) => f.id),
    );
    await x.engine.session.drain();
    const res = await x.sandbox.api<{ messages: { author: string; body: string }[] }>(
      'GET',
      `/api/reports/${draft.reportId}/messages`,
      { token: x.key },
    );
    const mine = res.body.messages.filter((m) => m.author === 'researcher').map((m) => m.body);
    expect(mine).toEqual(['My token was [REDACTED:github-token]']);
  });

  it('strips GPS metadata before upload, shows only raster bytes, says so in the checklist', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    const [png] = await x.engine.calls.attachFiles(draft.reportId, [
      { path: await x.file('screenshot.png', pngWithGps()), insertAt: 0 },
    ]);
    const [svg] = await x.engine.calls.attachFiles(draft.reportId, [
      { path: await x.file('diagram.svg', hostileSvg()) },
    ]);
    await x.engine.session.drain();
    const uploaded = await serverFile(x, draft.reportId, png?.fileId ?? '');
    expect(uploaded.includes(gpsBytes())).toBe(false);
    expect(hasImageMetadata(uploaded)).toBe(false);
    const image = await x.engine.calls.getEvidenceImage(draft.reportId, png?.fileId ?? '');
    expect(image?.contentType).toBe('image/png');
    expect(Buffer.from(image?.base64 ?? '', 'base64').equals(uploaded)).toBe(true);
    expect(await x.engine.calls.getEvidenceImage(draft.reportId, svg?.fileId ?? '')).toBeNull();
    const item = (await x.engine.calls.getChecklist(draft.reportId)).items.find(
      (i) => i.id === 'image_metadata',
    );
    expect(item).toMatchObject({
      ok: true,
      detail:
        'EXIF, GPS, XMP, IPTC, comments and thumbnails removed from 1 image; orientation kept.',
    });
  });

  it('imports a HAR and a Burp export as redacted code blocks, a large one with a file', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    const s = fixtureSecrets();
    const at = COMPLETE_DESCRIPTION.indexOf('## Expected behavior');
    const har = await x.engine.calls.importHttpEvidence(draft.reportId, {
      text: harFixture(s, 5000),
      name: 'checkout.har',
      insertAt: at,
    });
    expect(har).toMatchObject({
      imported: true,
      format: 'har',
      exchanges: 2,
      fileName: 'checkout.redacted.http',
    });
    expect(har.redacted).toBeGreaterThanOrEqual(4);
    const burp = await x.engine.calls.importHttpEvidence(draft.reportId, { text: burpFixture(s) });
    expect(burp).toMatchObject({ imported: true, format: 'burp', exchanges: 2 });
    expect(await x.engine.calls.importHttpEvidence(draft.reportId, { text: 'just words' })).toEqual(
      {
        imported: false,
        insertedChars: 0,
      },
    );
    await x.engine.session.drain();
    const report = await server(x, draft.reportId);
    expect(report.description).toContain('```http\nPOST /api/cart?item=7 HTTP/2');
    expect(report.description).toContain('Authorization: Bearer [REDACTED:jwt]');
    expect(report.description).not.toContain(s.jwt);
    expect(report.description).not.toContain(s.cookie);
    expect(report.description.indexOf('```http')).toBeLessThan(
      report.description.indexOf('## Expected behavior'),
    );
    const file = Object.entries(report.attachments).find(
      ([, a]) => a.name === 'checkout.redacted.http',
    );
    const bytes = (await serverFile(x, draft.reportId, file?.[0] ?? '')).toString();
    expect(bytes).toContain('x'.repeat(5000));
    expect(bytes).not.toContain(s.jwt);
    expect((await x.engine.calls.scanEvidence(draft.reportId)).open).toBe(0);
  });

  it('offers a binary body of an imported HAR as a file of its own, never as text', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    const text = realFile('har', 'har_files-chrome.har').toString('utf8');
    const result = await x.engine.calls.importHttpEvidence(draft.reportId, {
      text,
      name: 'chrome.har',
    });
    expect(result.imported).toBe(true);
    const png = (result.bodyFiles ?? []).filter((n) => n.endsWith('.png'));
    console.log(`binary bodies attached: ${(result.bodyFiles ?? []).join(', ')}`);
    expect(png.length).toBeGreaterThanOrEqual(1);
    const report = await x.engine.calls.getReport(draft.reportId);
    const file = report?.evidence.find((f) => f.name === png[0]);
    expect(file?.contentType).toBe('image/png');
    // The block labels the body; the description links the file; no PNG bytes as text.
    const description = report?.draft?.content.description ?? '';
    expect(description).toContain('[binary body: 7,108 bytes of image/png, not shown]');
    expect(description).toContain(png[0] ?? '?');
    expect(description).not.toContain('\uFFFD');
    expect(description).not.toMatch(/IHDR/);
  });

  it('lists the researcher’s own close reports of the same program, and earnings', async () => {
    const x = await open();
    const make = async (title: string, asset: string, program = x.programs.open.id) => {
      const d = await x.engine.calls.createDraft(program);
      await x.engine.calls.saveDraft(d.reportId, { ...CONTENT, title, asset });
      return d.reportId;
    };
    const first = await make(
      'IDOR on order details endpoint',
      'https://shop.example.com/api/orders/7',
    );
    await x.engine.calls.submit(first);
    await make('Stored XSS in profile bio', 'https://shop.example.com/profile');
    const current = await make(
      'Order details IDOR exposes addresses',
      'https://other.example.com/',
    );
    await x.engine.session.drain();
    await x.engine.session.syncNow(['reports']);
    const similar = await x.engine.calls.findSimilarReports(current);
    expect(similar.map((s) => [s.id, s.status, s.reasons])).toEqual([
      [first, 'triaging', ['shares "details", "order", "idor" (43% of the title)']],
    ]);

    await x.sandbox.act(first, { actor: 'founder', status: 'accepted', message: 'Valid.' });
    await x.sandbox.payout(first, { status: 'approving', amount_cents: 75_000 });
    await x.engine.session.syncNow(['reports', 'payouts']);
    const payouts = await x.engine.calls.listPayouts();
    expect(payouts.rows.map((r) => [r.reportId, r.status, r.amountCents])).toEqual([
      [first, 'approving', 75_000],
    ]);
    expect(payouts.byStatus[0]).toMatchObject({ label: 'Approved', count: 1, amountCents: 75_000 });
    const dest = join(x.dataDir, 'payouts.csv');
    await x.engine.calls.exportPayouts(dest);
    expect((await readFile(dest, 'utf8')).split('\r\n')[1]).toMatch(
      new RegExp(`^${first},.*,Approved,750\\.00,`),
    );
  });
});

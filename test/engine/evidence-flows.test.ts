import { describe, expect, it } from 'vitest';
import { fakePrivateKeys, urlPasswords, vendorShapes } from '../support/fake-secrets';
import { count, printCounts, realFile } from '../support/real-corpus';
import { COMPLETE_DESCRIPTION, harnessPerTest, server, serverFile, type Harness } from './harness';
import { completeDraft } from '../support/drafts';

/**
 * Through the engine against the sandbox: the same credentials placed in each flow a
 * researcher sends through (draft save, reply, file upload, HTTP import); after "Redact all" the
 * server holds none of them. Prints found/total per flow.
 */
const CONTENT = completeDraft(
  'Account takeover through a leaked session',
  'https://app.example.com',
);

interface Planted {
  kind: string;
  value: string;
  line: string;
}

function planted(): Planted[] {
  return [
    ...vendorShapes().map((s) => ({ kind: s.kind, value: s.secret, line: s.line })),
    ...urlPasswords().map((s) => ({ kind: 'url-password', value: s.secret, line: s.line })),
    ...fakePrivateKeys()
      .slice(0, 3)
      .map((k) => ({ kind: `private key ${k.name}`, value: k.pem, line: k.pem })),
  ];
}

/** The secrets still readable in what the server holds (a value or its URL-encoded form). */
function leaked(held: string, secrets: Planted[]): Planted[] {
  return secrets.filter(
    (s) => held.includes(s.value) || held.includes(encodeURIComponent(s.value)),
  );
}

describe('evidence flows leak nothing', () => {
  const open = harnessPerTest();

  async function redactAll(x: Harness, reportId: string): Promise<number> {
    const scan = await x.engine.calls.scanEvidence(reportId);
    // A finding's view never carries its value.
    const view = JSON.stringify(scan);
    for (const f of scan.findings) expect(f.label).not.toMatch(/[A-Za-z0-9+/_-]{24,}/);
    await x.engine.calls.redactFindings(
      reportId,
      scan.findings.filter((f) => !f.kept).map((f) => f.id),
    );
    await x.engine.session.drain();
    return view.length;
  }

  it('in the draft save, a reply, an upload and an import', async () => {
    const x = await open();
    const secrets = planted();
    const perFlow = new Map<string, [number, number]>();
    const record = (flow: string, held: string): void => {
      const left = leaked(held, secrets);
      if (left.length > 0) console.log(`${flow} leaked: ${left.map((s) => s.kind).join(', ')}`);
      for (const s of secrets) count(perFlow, flow, !left.includes(s));
    };

    // Draft save: every credential in the description.
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    const description = `${COMPLETE_DESCRIPTION}\n\n${secrets.map((s) => s.line).join('\n\n')}\n`;
    await x.engine.calls.saveDraft(draft.reportId, { ...CONTENT, description });
    await x.engine.session.drain();
    const scanView = await x.engine.calls.scanEvidence(draft.reportId);
    for (const s of secrets) expect(JSON.stringify(scanView)).not.toContain(s.value);
    await redactAll(x, draft.reportId);
    record('draft save', JSON.stringify(await server(x, draft.reportId)));

    // Upload: the same lines in files whose names say nothing (.env, .pem, .req) and in a HAR.
    const env = await x.file('prod.env', secrets.map((s) => `# ${s.kind}\n${s.line}`).join('\n'));
    const req = await x.file(
      'login.req',
      `POST /login HTTP/1.1\nHost: app.example.com\nContent-Type: application/json\n\n${JSON.stringify(
        { credentials: secrets.map((s) => ({ service: s.kind, token: s.value })) },
      )}\n`,
    );
    const har = JSON.parse(realFile('har', 'mitmproxy-websocket.har').toString()) as {
      log: { entries: { request: { cookies: unknown[]; postData?: unknown } }[] };
    };
    const first = har.log.entries[0];
    if (first) {
      first.request.cookies = secrets.map((s, i) => ({ name: `session_${i}`, value: s.value }));
    }
    const harPath = await x.file('capture.har', JSON.stringify(har, null, 2));
    const files = await x.engine.calls.attachFiles(draft.reportId, [
      { path: env },
      { path: req },
      { path: harPath },
    ]);
    await x.engine.session.drain();
    await redactAll(x, draft.reportId);
    const uploaded = await Promise.all(
      files.map((f) => serverFile(x, draft.reportId, f.fileId).then((b) => b.toString())),
    );
    record('upload', uploaded.join('\n'));
    // The redacted HAR is still a HAR with the same entries.
    const sentHar = JSON.parse(uploaded[2] ?? '') as typeof har;
    expect(sentHar.log.entries).toHaveLength(har.log.entries.length);
    const checklist = await x.engine.calls.getChecklist(draft.reportId);
    expect(checklist.items.find((i) => i.id === 'credentials_found')?.detail).toContain(
      'Title, asset, description and 3 evidence files scanned.',
    );

    // Import: a curl command as Chrome ("cmd") and Burp copy it, and a HAR.
    const cookie = secrets.map((s, i) => `c${i}=${encodeURIComponent(s.value)}`).join('; ');
    const chromeCmd = `curl ^"https://app.example.com/api/me^" ^\n  -H ^"accept: */*^" ^\n  -b ^"${cookie}^" ^\n  --compressed`;
    const burpCurl = `curl -i -s -k -X $'GET' -H $'Host: app.example.com' -b $'${cookie}' $'https://app.example.com/api/me'`;
    for (const text of [chromeCmd, burpCurl]) {
      await x.engine.calls.importHttpEvidence(draft.reportId, { text });
    }
    await x.engine.session.drain();
    record('import', (await server(x, draft.reportId)).description);

    // Reply: the same lines in a message on the submitted report.
    await x.engine.calls.submit(draft.reportId);
    await x.engine.session.drain();
    await x.engine.calls.postMessage(draft.reportId, {
      body: `More detail:\n\n${secrets.map((s) => s.line).join('\n\n')}`,
      filePaths: [],
    });
    await x.engine.session.drain();
    await redactAll(x, draft.reportId);
    const messages = await x.sandbox.api<{ messages: { body: string }[] }>(
      'GET',
      `/api/reports/${draft.reportId}/messages`,
      { token: x.key },
    );
    record('reply', JSON.stringify(messages.body));

    printCounts('credentials kept from the server, by flow', perFlow);
    for (const [flow, [found, total]] of perFlow) expect([flow, found]).toEqual([flow, total]);
  }, 120_000);

  it('cleans HEIC, AVIF and TIFF, names a damaged one, and counts every image', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    const tiff = realFile('images', 'exifr-Bush-dog.tif');
    await x.engine.calls.attachFiles(draft.reportId, [
      { path: await x.file('photo.jpg', realFile('images', 'exifr-issue-exifr-13.jpg')) },
      { path: await x.file('phone.heic', realFile('images', 'exifr-heic-iphone7.heic')) },
      { path: await x.file('phone.avif', realFile('images', 'exifr-Irvine_CA.avif')) },
      { path: await x.file('scan.tif', tiff) },
      // Cut before its first IFD: nothing to read, so nothing cleaned, and never called clean.
      { path: await x.file('broken.tif', tiff.subarray(0, 64)) },
    ]);
    const item = (await x.engine.calls.getChecklist(draft.reportId)).items.find(
      (i) => i.id === 'image_metadata',
    );
    expect(item?.ok).toBe(false);
    expect(item?.detail).toBe(
      'Metadata not removed (a file whose structure this app cannot read): “broken.tif” (TIFF). Convert it to PNG or JPEG, or check it yourself.',
    );
  });

  it('calls five cleaned images of five formats clean', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.attachFiles(draft.reportId, [
      { path: await x.file('photo.jpg', realFile('images', 'exifr-issue-exifr-13.jpg')) },
      { path: await x.file('gps.png', realFile('images', 'exifr-png_with_exif_and_gps.png')) },
      { path: await x.file('phone.heic', realFile('images', 'exifr-heic-iphone7.heic')) },
      { path: await x.file('phone.avif', realFile('images', 'exifr-Irvine_CA.avif')) },
      { path: await x.file('drone.tif', realFile('images', 'exifr-001.tif')) },
    ]);
    const item = (await x.engine.calls.getChecklist(draft.reportId)).items.find(
      (i) => i.id === 'image_metadata',
    );
    expect(item?.detail).toBe(
      'EXIF, GPS, XMP, IPTC, comments and thumbnails removed from 5 images; orientation kept.',
    );
    expect(item?.ok).toBe(true);
  });
});

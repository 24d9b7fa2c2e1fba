import { describe, expect, it } from 'vitest';
import { messageFingerprint } from '../../src/engine/store';
import { reportTexts } from '../support/report-texts';
import { makeMessage, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

describe('messages', () => {
  it('keeps the thread oldest first and replaces it whole', () => {
    const report = makeReport();
    t.store.reports.upsertReports([report]);
    const first = makeMessage({ body: 'first' });
    const second = makeMessage({ author: 'researcher', body: 'second' });
    t.store.messages.replaceThread(report.id, [first, second]);
    expect(t.store.messages.listThread(report.id)).toEqual([first, second]);

    const third = makeMessage({ author: 'founder', body: 'third' });
    const edited = { ...first, body: 'first, edited' };
    t.store.messages.replaceThread(report.id, [edited, third]);
    expect(t.store.messages.listThread(report.id)).toEqual([edited, third]);
    t.store.messages.replaceThread(report.id, [edited, third]);
    expect(t.store.messages.listThread(report.id)).toEqual([edited, third]);
  });

  it('refuses a thread for a report the store does not know (foreign key)', () => {
    expect(() => t.store.messages.replaceThread('nope', [makeMessage()])).toThrow(/FOREIGN KEY/);
  });

  it('fingerprints a message by its body and its set of file ids', () => {
    const fp = messageFingerprint('here is the request', ['f1', 'f2']);
    expect(messageFingerprint('here is the request', ['f2', 'f1'])).toBe(fp);
    expect(messageFingerprint('here is the request', [])).not.toBe(fp);
    expect(messageFingerprint('here is the request ', ['f1', 'f2'])).not.toBe(fp);
    // The separator keeps a body ending in a file id apart from that file.
    expect(messageFingerprint('a', ['b'])).not.toBe(messageFingerprint('ab', []));
  });

  it("stores each message's fingerprint as the digest's 32 bytes", () => {
    const report = makeReport();
    t.store.reports.upsertReports([report]);
    const plain = makeMessage({ body: 'Confirmed on the production host.' });
    const withFiles = makeMessage({
      author: 'researcher',
      // A real write-up's text, with its requests, tokens and paths.
      body: reportTexts()[0]?.text ?? '',
      attachments: [
        { id: 'file-b', name: 'response.txt', size: 12, content_type: 'text/plain' },
        { id: 'file-a', name: 'request.txt', size: 34, content_type: 'text/plain' },
      ],
    });
    t.store.messages.replaceThread(report.id, [plain, withFiles]);
    const stored = t.store.db.sqlite
      .prepare<[string], { kind: string; hex: string }>(
        `SELECT typeof(fingerprint) AS kind, lower(hex(fingerprint)) AS hex FROM messages
         WHERE report_id = ? ORDER BY position`,
      )
      .all(report.id);
    expect(stored).toEqual([
      { kind: 'blob', hex: messageFingerprint(plain.body, []) },
      { kind: 'blob', hex: messageFingerprint(withFiles.body, ['file-a', 'file-b']) },
    ]);
  });
});

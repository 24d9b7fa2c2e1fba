import { describe, expect, it } from 'vitest';
import { messageFingerprint } from '../../src/engine/store';
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
});

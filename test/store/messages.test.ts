import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageFingerprint } from '../../src/core/store';
import { makeMessage, makeReport, tempStore, type TempStore } from './fixtures';

let t: TempStore;
beforeEach(() => (t = tempStore()));
afterEach(() => t.cleanup());

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

  it('finds a researcher message by content fingerprint for the resend check', () => {
    const report = makeReport();
    t.store.reports.upsertReports([report]);
    const files = [
      { id: 'f2', name: 'b', size: 1, content_type: 'text/plain' },
      { id: 'f1', name: 'a', size: 1, content_type: 'text/plain' },
    ];
    t.store.messages.replaceThread(report.id, [
      makeMessage({ author: 'agent', body: 'same text' }),
      makeMessage({ author: 'researcher', body: 'here is the request', attachments: files }),
    ]);
    const mine = messageFingerprint('here is the request', ['f1', 'f2']);
    expect(t.store.messages.hasResearcherMessage(report.id, mine)).toBe(true);
    // An agent message with the same body is not "mine".
    expect(
      t.store.messages.hasResearcherMessage(report.id, messageFingerprint('same text', [])),
    ).toBe(false);
    expect(
      t.store.messages.hasResearcherMessage(
        report.id,
        messageFingerprint('here is the request', []),
      ),
    ).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { messageFingerprint } from '../../src/engine/store';
import { useTempStore } from './fixtures';

const t = useTempStore();

describe('outbox', () => {
  it("runs a report's entries strictly in order, one at a time", () => {
    const { outbox } = t.store;
    const save = outbox.enqueue({ reportId: 'A', kind: 'save_report', payload: {} });
    const upload = outbox.enqueue({
      reportId: 'A',
      kind: 'upload_file',
      payload: { file_id: 'f1', name: 'poc.txt', content_type: 'text/plain', size: 3, sha256: 'x' },
    });
    const submit = outbox.enqueue({ reportId: 'A', kind: 'submit', payload: {} });
    expect(outbox.nextReady(Date.now()).map((e) => e.id)).toEqual([save.id]);
    outbox.markInFlight(save.id);
    // In flight blocks the rest of the report.
    expect(outbox.nextReady(Date.now())).toEqual([]);
    outbox.markDone(save.id);
    expect(outbox.nextReady(Date.now()).map((e) => e.id)).toEqual([upload.id]);
    outbox.markInFlight(upload.id);
    outbox.markDone(upload.id);
    expect(outbox.nextReadyForReport('A', Date.now())?.id).toBe(submit.id);
  });

  it('coalesces a pending save_report at the tail instead of adding a second one', () => {
    const { outbox } = t.store;
    const first = outbox.enqueue({ reportId: 'A', kind: 'save_report', payload: {} });
    const second = outbox.enqueue({ reportId: 'A', kind: 'save_report', payload: {} });
    expect(second.id).toBe(first.id);
    expect(outbox.list({ reportId: 'A' })).toHaveLength(1);
    // Another report's saves are not merged into this one.
    outbox.enqueue({ reportId: 'B', kind: 'save_report', payload: {} });
    expect(outbox.countUnsent()).toBe(2);
  });

  it('does not coalesce into a save that is in flight, or overtake later entries', () => {
    const { outbox } = t.store;
    const first = outbox.enqueue({ reportId: 'A', kind: 'save_report', payload: {} });
    outbox.markInFlight(first.id);
    const second = outbox.enqueue({ reportId: 'A', kind: 'save_report', payload: {} });
    expect(second.id).not.toBe(first.id);
    outbox.enqueue({ reportId: 'A', kind: 'remove_file', payload: { file_id: 'f1' } });
    const third = outbox.enqueue({ reportId: 'A', kind: 'save_report', payload: {} });
    expect(third.id).not.toBe(second.id);
    expect(outbox.list({ reportId: 'A' }).map((e) => e.kind)).toEqual([
      'save_report',
      'save_report',
      'remove_file',
      'save_report',
    ]);
  });

  it('a parked entry blocks only its own report', () => {
    const { outbox } = t.store;
    const a1 = outbox.enqueue({ reportId: 'A', kind: 'submit', payload: {} });
    outbox.enqueue({ reportId: 'A', kind: 'withdraw', payload: {} });
    const b1 = outbox.enqueue({ reportId: 'B', kind: 'submit', payload: {} });
    outbox.markInFlight(a1.id);
    outbox.park(a1.id, { code: 'payments_not_ready' });
    expect(outbox.nextReady(Date.now()).map((e) => e.id)).toEqual([b1.id]);
    expect(outbox.nextReadyForReport('A', Date.now())).toBeNull();
    expect(outbox.get(a1.id)).toMatchObject({
      state: 'parked',
      lastError: { code: 'payments_not_ready' },
    });
    outbox.unpark(a1.id);
    expect(outbox.nextReady(Date.now()).map((e) => e.id)).toEqual([a1.id, b1.id]);
  });

  it('retry-later waits until next_attempt_at, keeping the report blocked meanwhile', () => {
    const { outbox } = t.store;
    const now = 1_000_000;
    const entry = outbox.enqueue({ reportId: 'A', kind: 'submit', payload: {} });
    outbox.enqueue({ reportId: 'A', kind: 'withdraw', payload: {} });
    outbox.markInFlight(entry.id);
    outbox.retryLater(entry.id, now + 60_000, { code: 'rate_limited' });
    expect(outbox.nextReady(now)).toEqual([]);
    const due = outbox.nextReady(now + 60_000);
    expect(due.map((e) => [e.id, e.attempts])).toEqual([[entry.id, 1]]);
    outbox.markInFlight(entry.id);
    expect(() => outbox.markInFlight(entry.id)).toThrow(/not pending/);
    expect(() => outbox.markInFlight(9999)).toThrow(/not pending/);
  });

  it('survives a re-open, and recovers entries left in flight by a crash', () => {
    const hash = messageFingerprint('hello', []);
    const message = t.store.outbox.enqueue({
      reportId: 'A',
      kind: 'post_message',
      payload: { body: 'hello', files: [] },
      localId: 'local-1',
      bodyHash: hash,
    });
    t.store.outbox.enqueue({ reportId: 'B', kind: 'save_report', payload: {} });
    t.store.outbox.markInFlight(message.id);
    t.reopen();
    const { outbox } = t.store;
    expect(outbox.countUnsent()).toBe(2);
    const recovered = outbox.recoverInFlight();
    expect(recovered.map((e) => [e.id, e.localId, e.bodyHash, e.attempts])).toEqual([
      [message.id, 'local-1', hash, 1],
    ]);
    expect(outbox.get(message.id)?.state).toBe('pending');
  });

  it('lists for the UI, counts unsent, cancels and prunes', () => {
    const { outbox } = t.store;
    const a = outbox.enqueue({ reportId: 'A', kind: 'submit', payload: {} });
    const b = outbox.enqueue({ reportId: 'B', kind: 'withdraw', payload: {} });
    outbox.markInFlight(a.id);
    outbox.markDone(a.id);
    expect(outbox.list().map((e) => e.id)).toEqual([b.id]);
    expect(outbox.list({ includeDone: true }).map((e) => e.id)).toEqual([a.id, b.id]);
    expect(outbox.countUnsent('A')).toBe(0);
    expect(outbox.countUnsent('B')).toBe(1);
    outbox.cancel(b.id);
    expect(outbox.countUnsent()).toBe(0);
    expect(outbox.pruneDone(new Date(Date.now() + 1000).toISOString())).toBe(1);
    expect(outbox.list({ includeDone: true })).toEqual([]);
  });

  it('ids keep growing after entries are pruned (AUTOINCREMENT)', () => {
    const { outbox } = t.store;
    const a = outbox.enqueue({ reportId: 'A', kind: 'submit', payload: {} });
    outbox.markInFlight(a.id);
    outbox.markDone(a.id);
    outbox.pruneDone(new Date(Date.now() + 1000).toISOString());
    expect(outbox.enqueue({ reportId: 'A', kind: 'submit', payload: {} }).id).toBeGreaterThan(a.id);
  });
});

import { describe, expect, it } from 'vitest';
import { RequestBudget, type BudgetGrant, type Priority } from '../../src/engine/api/budget';
import { ManualClock } from '../../src/engine/api/clock';

/** Acquires and records the order in which grants arrive. */
function tracker(budget: RequestBudget) {
  const order: string[] = [];
  const grants: BudgetGrant[] = [];
  const ask = (priority: Priority, label: string, signal?: AbortSignal) =>
    budget.acquire(priority, signal).then((grant) => {
      order.push(label);
      grants.push(grant);
      return grant;
    });
  return { order, grants, ask };
}

describe('RequestBudget', () => {
  it('grants at most the limit per rolling window and frees slots one window after release', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget({ limit: 120, clock });
    const { order, grants, ask } = tracker(budget);
    for (let i = 0; i < 130; i++) void ask('user', `r${i}`);
    await clock.advance(0);
    expect(order).toHaveLength(120);

    // Releasing does not free a slot at once: the server still counts it for a minute.
    for (const grant of grants.slice(0, 60)) grant.release();
    await clock.advance(59_999);
    expect(order).toHaveLength(120);
    await clock.advance(1);
    expect(order).toHaveLength(130);
    expect(budget.snapshot()).toMatchObject({ used: 70, inFlight: 70 });
  });

  it('keeps headroom for the person: background work stops short of the limit', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget({ clock });
    expect([
      budget.ceiling('user'),
      budget.ceiling('outbox'),
      budget.ceiling('poll'),
      budget.ceiling('prefetch'),
    ]).toEqual([120, 110, 100, 100]);
    const { order, ask } = tracker(budget);
    for (let i = 0; i < 95; i++) void ask('prefetch', 'prefetch');
    await clock.advance(0);
    expect(order).toHaveLength(95);
    for (let i = 0; i < 15; i++) void ask('poll', 'poll');
    for (let i = 0; i < 15; i++) void ask('outbox', 'outbox');
    for (let i = 0; i < 15; i++) void ask('user', 'user');
    await clock.advance(0);
    const count = (label: string) => order.filter((l) => l === label).length;
    // Each level fills up to its own ceiling; only the person may take the last slots.
    expect([count('prefetch'), count('poll'), count('outbox'), count('user')]).toEqual([
      95, 5, 10, 10,
    ]);
    expect(budget.snapshot().waiting).toEqual({ user: 5, outbox: 5, poll: 10, prefetch: 0 });
  });

  it('serves waiting requests highest priority first, FIFO within a priority', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget({
      limit: 2,
      shares: { poll: 1, prefetch: 1, outbox: 1 },
      clock,
    });
    const { order, grants, ask } = tracker(budget);
    void ask('user', 'first');
    void ask('user', 'second');
    await clock.advance(0);
    void ask('prefetch', 'prefetch-1');
    void ask('poll', 'poll-1');
    void ask('poll', 'poll-2');
    void ask('outbox', 'outbox-1');
    void ask('user', 'user-late');
    await clock.advance(0);
    for (const grant of grants.splice(0)) grant.release();
    for (let step = 0; step < 3; step++) {
      await clock.advance(60_000);
      for (const grant of grants.splice(0)) grant.release();
    }
    expect(order).toEqual([
      'first',
      'second',
      'user-late',
      'outbox-1',
      'poll-1',
      'poll-2',
      'prefetch-1',
    ]);
  });

  it('pauses every priority until a Retry-After has passed', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget({ clock });
    const { order, ask } = tracker(budget);
    budget.pauseUntil(clock.now() + 30_000);
    void ask('user', 'user');
    void ask('poll', 'poll');
    await clock.advance(29_999);
    expect(order).toEqual([]);
    expect(budget.snapshot().pausedUntil).toBe(clock.now() + 1);
    // A shorter pause never shortens the running one.
    budget.pauseUntil(clock.now() + 1);
    await clock.advance(1);
    expect(order).toEqual(['user', 'poll']);
    expect(budget.snapshot().pausedUntil).toBeNull();
  });

  it('drops a waiting request whose caller gave up, and releases only once', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget({ limit: 1, clock });
    const { order, grants, ask } = tracker(budget);
    void ask('user', 'holder');
    await clock.advance(0);
    const controller = new AbortController();
    const abandoned = ask('user', 'abandoned', controller.signal);
    void ask('user', 'next');
    controller.abort(new Error('closed'));
    await expect(abandoned).rejects.toThrow('closed');
    grants[0]?.release();
    grants[0]?.release();
    expect(budget.snapshot()).toMatchObject({ inFlight: 0, used: 1 });
    await clock.advance(60_000);
    expect(order).toEqual(['holder', 'next']);
  });

  it('run() releases the slot when the task fails', async () => {
    const clock = new ManualClock();
    const budget = new RequestBudget({ limit: 3, clock });
    await expect(budget.run('user', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(budget.snapshot()).toMatchObject({ inFlight: 0, used: 1, granted: { user: 1 } });
    await clock.advance(60_000);
    expect(budget.snapshot().used).toBe(0);
  });
});

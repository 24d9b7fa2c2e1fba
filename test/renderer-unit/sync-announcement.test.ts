import { describe, expect, it } from 'vitest';
import { syncAnnouncement } from '../../src/renderer/src/app/sync-announcement';
import type { StatusView } from '../../src/shared/bridge/views';

const base: StatusView = {
  connectivity: 'online',
  syncing: false,
  lastSyncAt: '2026-11-25T10:42:00Z',
  unsent: 0,
  held: 0,
  needsAction: 0,
  unread: 0,
  budget: { used: 3, limit: 120 },
  lastError: null,
} as StatusView;
const time = (iso: string) => iso.slice(11, 16);

describe('what a screen reader hears about syncing', () => {
  it('one sentence per state, the engine restart first', () => {
    expect(syncAnnouncement(base, 'ready', time)).toBe('Synced at 10:42.');
    expect(syncAnnouncement({ ...base, syncing: true }, 'ready', time)).toBe('Syncing…');
    expect(syncAnnouncement({ ...base, connectivity: 'offline' }, 'ready', time)).toMatch(
      /^Offline\. Your changes are kept/,
    );
    expect(syncAnnouncement(base, 'restarting', time)).toBe('Reconnecting to the engine…');
    expect(
      syncAnnouncement(
        {
          ...base,
          lastError: { title: 'Server error', advice: 'Try again.', code: 'internal_error' },
        } as StatusView,
        'ready',
        time,
      ),
    ).toBe('Sync failed: Server error.');
    expect(syncAnnouncement(null, 'ready', time)).toBe('');
  });

  it('does not change while only the counters do (no chatter)', () => {
    const busier = { ...base, budget: { used: 90, limit: 120 }, unsent: 4, unread: 2 };
    expect(syncAnnouncement(busier, 'ready', time)).toBe(syncAnnouncement(base, 'ready', time));
  });
});

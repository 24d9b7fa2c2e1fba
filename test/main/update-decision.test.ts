import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  initialUpdateState,
  manualCheckAnswer,
  nextUpdateState,
  onCheckRequested,
  onQuit,
  progressFraction,
  type UpdateEvent,
  type UpdateState,
} from '../../src/main/rules/update-decision';

const run = (events: UpdateEvent[], from: UpdateState = { phase: 'idle' }): UpdateState =>
  events.reduce(nextUpdateState, from);

const downloaded: UpdateState = { phase: 'downloaded', version: '0.2.0' };

const event: fc.Arbitrary<UpdateEvent> = fc.oneof(
  fc.constant({ type: 'checking' as const }),
  fc.constant({ type: 'available' as const, version: '0.2.0' }),
  fc.constant({ type: 'not-available' as const, version: '0.1.0' }),
  fc.double().map((percent) => ({ type: 'progress' as const, percent })),
  fc.constant({ type: 'downloaded' as const, version: '0.2.0' }),
  fc.constant({ type: 'error' as const, code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' }),
);

describe('updates: when to check', () => {
  it('never on a development build (unpackaged), whatever happens', () => {
    const dev = initialUpdateState({ isPackaged: false });
    expect(dev).toEqual({ phase: 'disabled' });
    fc.assert(
      fc.property(fc.array(event), (events) => {
        expect(run(events, dev)).toEqual({ phase: 'disabled' });
      }),
    );
    expect(onCheckRequested(dev)).toMatchObject({
      action: 'tell',
      message: 'Updates are off in this build.',
    });
    expect(onQuit(dev, { unsent: 0 })).toEqual({ action: 'quit' });
  });

  it('an installed build checks; a second request while one runs waits for it', () => {
    const idle = initialUpdateState({ isPackaged: true });
    expect(onCheckRequested(idle)).toEqual({ action: 'check' });
    expect(onCheckRequested({ phase: 'up-to-date', version: '0.1.0' })).toEqual({
      action: 'check',
    });
    expect(onCheckRequested({ phase: 'failed', code: 'x' })).toEqual({ action: 'check' });
    expect(onCheckRequested(run([{ type: 'checking' }]))).toEqual({ action: 'wait' });
  });

  it('while downloading, the menu says how far; once downloaded, it offers the restart', () => {
    const downloading = run([
      { type: 'checking' },
      { type: 'available', version: '0.2.0' },
      { type: 'progress', percent: 41.7 },
    ]);
    expect(downloading).toEqual({ phase: 'downloading', version: '0.2.0', percent: 41.7 });
    expect(onCheckRequested(downloading)).toMatchObject({
      action: 'tell',
      message: 'Version 0.2.0 is downloading (41%).',
    });
    expect(onCheckRequested(downloaded)).toEqual({ action: 'offer-restart', version: '0.2.0' });
  });

  it('answers a check the user asked for once there is an answer', () => {
    expect(manualCheckAnswer({ phase: 'up-to-date', version: '0.1.0' }, '0.1.0')).toEqual({
      action: 'tell',
      message: 'Bounty Desk 0.1.0 is the latest version.',
    });
    expect(manualCheckAnswer({ phase: 'failed', code: 'ERR_X' }, '0.1.0')).toMatchObject({
      action: 'tell',
      detail: expect.stringContaining('ERR_X'),
    });
    expect(manualCheckAnswer(downloaded, '0.1.0')).toEqual({
      action: 'offer-restart',
      version: '0.2.0',
    });
    expect(manualCheckAnswer({ phase: 'checking' }, '0.1.0')).toEqual({ action: 'wait' });
  });
});

describe('updates: progress', () => {
  it('never goes back, stays within 0..100, and shows on the taskbar only while downloading', () => {
    fc.assert(
      fc.property(fc.array(fc.double()), (percents) => {
        let state = run([{ type: 'available', version: '0.2.0' }]);
        let last = 0;
        for (const percent of percents) {
          state = nextUpdateState(state, { type: 'progress', percent });
          if (state.phase !== 'downloading') throw new Error(state.phase);
          expect(state.percent).toBeGreaterThanOrEqual(last);
          expect(state.percent).toBeLessThanOrEqual(100);
          last = state.percent;
          const fraction = progressFraction(state);
          expect(fraction).toBeGreaterThanOrEqual(0);
          expect(fraction).toBeLessThanOrEqual(1);
        }
      }),
    );
    expect(progressFraction(downloaded)).toBe(-1);
    expect(progressFraction({ phase: 'idle' })).toBe(-1);
  });

  it('a downloaded update stays ready whatever later checks say', () => {
    fc.assert(
      fc.property(fc.array(event), (events) => {
        expect(run(events, downloaded).phase).toBe('downloaded');
      }),
    );
  });
});

describe('updates: when to install', () => {
  it('nothing downloaded: quit without installing', () => {
    for (const state of [
      { phase: 'idle' },
      { phase: 'checking' },
      { phase: 'downloading', version: '0.2.0', percent: 99 },
      { phase: 'failed', code: 'x' },
    ] as UpdateState[]) {
      expect(onQuit(state, { unsent: 0 })).toEqual({ action: 'quit' });
    }
  });

  it('downloaded and the outbox empty: install on quit without asking', () => {
    expect(onQuit(downloaded, { unsent: 0 })).toEqual({ action: 'install' });
  });

  it('downloaded with unsent changes, or an outbox that cannot be read: ask, "later" by default', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (unsent) => {
        const answer = onQuit(downloaded, { unsent });
        expect(answer).toMatchObject({
          action: 'ask',
          install: 'Install now',
          skip: 'Install later',
        });
      }),
    );
    expect(onQuit(downloaded, { unsent: 1 })).toMatchObject({
      message: 'Install version 0.2.0 now?',
      detail: expect.stringContaining('1 change is not sent yet.'),
    });
    expect(onQuit(downloaded, { unsent: 3 })).toMatchObject({
      detail: expect.stringContaining('3 changes are not sent yet.'),
    });
    expect(onQuit(downloaded, null)).toMatchObject({
      action: 'ask',
      detail: expect.stringContaining('could not tell'),
    });
  });
});

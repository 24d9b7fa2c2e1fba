/**
 * The router's answer to a hash change (stores/router.ts), with the page's `window` played by an
 * EventTarget: the change `navigate` itself makes keeps the route shown (the same object, so no
 * screen renders again: each open rendered the whole screen twice, 10 ms and a frame); a hash
 * set from elsewhere (a link, Back) still changes the screen.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const location = { hash: '#/reports' };
const loadRouter = () => import('../../src/renderer/src/stores/router');
let router: Awaited<ReturnType<typeof loadRouter>>;

beforeAll(async () => {
  vi.stubGlobal('window', Object.assign(new EventTarget(), { location, localStorage: undefined }));
  router = await loadRouter();
});

afterAll(() => {
  vi.unstubAllGlobals();
});

const hashChanges = (): void => {
  window.dispatchEvent(new Event('hashchange'));
};

describe('router: hash changes', () => {
  it("keeps the route navigate set when its own hash change comes in; takes another one's", () => {
    expect(router.useRouter.getState().route).toEqual({ name: 'reports' });
    router.navigate({ name: 'report', reportId: 'a/b c' });
    expect(location.hash).toBe('#/reports/a%2Fb%20c');
    const shown = router.useRouter.getState().route;
    hashChanges();
    expect(router.useRouter.getState().route).toBe(shown);

    location.hash = '#/account';
    hashChanges();
    expect(router.useRouter.getState().route).toEqual({ name: 'account' });
    // The same screen by another spelling of its hash: still the route shown.
    const account = router.useRouter.getState().route;
    location.hash = '#/account/';
    hashChanges();
    expect(router.useRouter.getState().route).toBe(account);
  });
});

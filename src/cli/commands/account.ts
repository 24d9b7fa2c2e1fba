import type { Command } from '../command';
import { JSON_OPTION, str } from '../command';
import { EXIT } from '../exit-codes';
import { readStdin } from '../inputs';
import { print, printJson, progress, safeText, say, UsageError } from '../terminal';
import type { AccountView, StatusView } from '@shared/bridge/views';

/** `status --json` and `auth status --json`: the account without anything secret. */
export function accountJson(account: AccountView | null) {
  if (!account) return null;
  return {
    serverUrl: account.serverUrl,
    sandbox: account.sandbox,
    scope: account.scope,
    uid: account.me?.uid ?? null,
    email: account.me?.email ?? null,
    emailVerified: account.me?.email_verified ?? null,
    payments: account.payments?.status ?? null,
  };
}

function statusJson(account: AccountView | null, status: StatusView) {
  return {
    account: accountJson(account),
    connectivity: status.connectivity,
    syncing: status.syncing,
    lastSyncAt: status.lastSyncAt,
    queued: { unsent: status.unsent, held: status.held },
    needsAction: status.needsAction,
    unread: status.unread,
    limits: { used: status.budget.used, limit: status.budget.limit },
    mirror: status.mirror ?? null,
    lastError: status.lastError
      ? { code: status.lastError.code, title: status.lastError.title }
      : null,
  };
}

const login: Command = {
  path: ['auth', 'login'],
  summary: 'Sign in with an API key read from standard input',
  args: '--server <url> --with-token',
  example: 'bountydesk auth login --server https://api.example.com --with-token < key.txt',
  options: { server: { type: 'string' }, 'with-token': { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  details: [
    '--server <url>   the service address (https; http only for this computer)',
    '--with-token     read the key from standard input (never an argument: it would stay in the shell history)',
    'The key goes to the OS keychain, the same entry the app uses.',
  ],
  async run(ctx, values) {
    const serverUrl = str(values, 'server');
    if (!serverUrl) throw new UsageError('--server is required.');
    if (values['with-token'] !== true)
      throw new UsageError('--with-token is required: pipe the key in.');
    const apiKey = (await readStdin(ctx.io)).trim();
    if (!apiKey) throw new UsageError('No key on standard input.');
    const link = await ctx.link();
    const account = await link.calls.connect({ serverUrl, apiKey, sandbox: false });
    say(
      ctx.io,
      `Signed in to ${safeText(account.serverUrl)} as ${safeText(account.me?.email ?? account.me?.uid ?? '?')}.`,
    );
    return EXIT.ok;
  },
};

const authStatus: Command = {
  path: ['auth', 'status'],
  summary: 'Who is signed in, where, with which key scope',
  args: '[--json]',
  example: 'bountydesk auth status',
  options: JSON_OPTION,
  positionals: { min: 0, max: 0 },
  json: true,
  details: ['Exit code 5 when nobody is signed in.'],
  async run(ctx) {
    const account = await (await ctx.link()).calls.getAccount();
    if (ctx.json) printJson(ctx.io, { signedIn: account !== null, account: accountJson(account) });
    else if (account) {
      print(
        ctx.io,
        `Signed in to ${safeText(account.serverUrl)}${account.sandbox ? " (the app's sandbox)" : ''} as ${safeText(account.me?.email ?? account.me?.uid ?? '?')}, ${account.scope} key.`,
      );
    } else say(ctx.io, 'Not signed in. Sign in with: bountydesk auth login');
    return account ? EXIT.ok : EXIT.notSignedIn;
  },
};

const logout: Command = {
  path: ['auth', 'logout'],
  summary: 'Sign out: the key leaves the keychain; drafts and queued changes stay',
  args: '',
  example: 'bountydesk auth logout',
  options: {},
  positionals: { min: 0, max: 0 },
  details: [],
  async run(ctx) {
    await (await ctx.link()).calls.signOut();
    say(ctx.io, 'Signed out.');
    return EXIT.ok;
  },
};

const status: Command = {
  path: ['status'],
  summary: 'Account, sync state, queued changes and request limits',
  args: '[--json]',
  example: 'bountydesk status --json',
  options: JSON_OPTION,
  positionals: { min: 0, max: 0 },
  json: true,
  details: ['Exit code 5 when nobody is signed in.'],
  async run(ctx) {
    const link = await ctx.link();
    const account = await link.calls.getAccount();
    const view = statusJson(account, await link.calls.getStatus());
    if (ctx.json) printJson(ctx.io, view);
    else {
      const lines = [
        view.account
          ? `Account:   ${safeText(view.account.email ?? view.account.uid ?? '?')} on ${safeText(view.account.serverUrl)} (${view.account.scope} key)`
          : 'Account:   not signed in',
        `Sync:      ${view.connectivity}${view.syncing ? ', syncing' : ''}; last ${view.lastSyncAt ?? 'never'}`,
        `Queued:    ${view.queued.unsent} change(s), ${view.queued.held} held for you`,
        `Inbox:     ${view.needsAction} report(s) wait for you, ${view.unread} unread message(s)`,
        `Limits:    ${view.limits.used}/${view.limits.limit} requests this minute`,
        `Engine:    ${link.via === 'app' ? "the app's" : 'started for this command'}`,
      ];
      if (view.mirror)
        lines.push(`Download:  ${view.mirror.downloaded}/${view.mirror.total} reports`);
      if (view.lastError) lines.push(`Last error: ${safeText(view.lastError.title)}`);
      print(ctx.io, lines.join('\n'));
    }
    return account ? EXIT.ok : EXIT.notSignedIn;
  },
};

const sync: Command = {
  path: ['sync'],
  summary: 'Sync now: reports, threads, programs and payouts',
  args: '[--json]',
  example: 'bountydesk sync',
  options: JSON_OPTION,
  positionals: { min: 0, max: 0 },
  json: true,
  details: ['Waits for the sync to finish; progress on a terminal. Exit code 3 when offline.'],
  async run(ctx) {
    const link = await ctx.link();
    await link.calls.syncNow();
    const bar = progress(ctx.io);
    let view = await link.calls.getStatus();
    for (let i = 0; view.syncing && i < 2_400; i++) {
      bar.update('Syncing', view.mirror?.downloaded, view.mirror?.total);
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = await link.calls.getStatus();
    }
    bar.end();
    const account = await link.calls.getAccount();
    if (ctx.json) printJson(ctx.io, statusJson(account, view));
    if (view.connectivity === 'offline') {
      say(ctx.io, 'Offline: the service did not answer; the local copy is unchanged.');
      return EXIT.queued;
    }
    if (view.lastError && view.lastError.status > 0) {
      say(
        ctx.io,
        `Sync failed: ${safeText(view.lastError.title)}. ${safeText(view.lastError.advice)}`,
      );
      return EXIT.server;
    }
    if (!ctx.json) say(ctx.io, `Synced at ${view.lastSyncAt ?? '?'}.`);
    return EXIT.ok;
  },
};

export const ACCOUNT_COMMANDS = [login, authStatus, logout, status, sync];
export { statusJson };

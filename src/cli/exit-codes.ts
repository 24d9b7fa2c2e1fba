/**
 * The command's exit codes: stable, documented in the README, and what scripts branch on.
 * 1 is anything not listed (a file that cannot be read, a report that does not exist).
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  /** The command line itself is wrong: an unknown command or option, a missing argument. */
  usage: 2,
  /** Offline: the write is kept in the outbox and goes out when the service answers again. */
  queued: 3,
  /** The checks refused: the submit checklist, credentials in the evidence, a file's problems. */
  refused: 4,
  notSignedIn: 5,
  /** The service answered with an error (a refused change, a server failure). */
  server: 6,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_MEANINGS: readonly [ExitCode, string][] = [
  [EXIT.ok, 'done'],
  [EXIT.failed, 'failed (a file, a report or an input that cannot be used; see the message)'],
  [EXIT.usage, 'usage: unknown command or option, missing or extra argument'],
  [EXIT.queued, 'offline: the change is queued and goes out when the service is reachable'],
  [EXIT.refused, 'refused by the checks (submit checklist, credentials found, file problems)'],
  [EXIT.notSignedIn, 'not signed in'],
  [EXIT.server, 'the service answered with an error'],
];

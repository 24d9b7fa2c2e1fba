import type { ErrorView } from '@shared/bridge/views';
import type { EngineLink } from './engine-link';
import { EXIT, type ExitCode } from './exit-codes';
import { progress, say, type Io } from './terminal';

export type Delivery =
  | { outcome: 'sent' }
  | { outcome: 'queued'; reason: 'offline' | 'waiting' }
  | { outcome: 'refused'; error: ErrorView | null };

/**
 * Waits until the report's queued writes are accepted by the service, refused by it, or found to
 * wait for the network. Nothing is sent by the command itself: the engine's outbox sends each
 * write once (and again after a crash only when the service has not seen it).
 */
export async function waitForDelivery(
  link: EngineLink,
  reportId: string,
  io: Io,
  timeoutMs: number,
): Promise<Delivery> {
  const bar = progress(io);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const detail = await link.calls.getReport(reportId);
      const open = (detail?.outbox ?? []).filter((entry) => entry.state !== 'done');
      if (open.length === 0) return { outcome: 'sent' };
      const parked = open.find((entry) => entry.state === 'parked');
      if (parked) return { outcome: 'refused', error: parked.error };
      const status = await link.calls.getStatus();
      if (status.connectivity === 'offline') return { outcome: 'queued', reason: 'offline' };
      if (Date.now() > deadline) return { outcome: 'queued', reason: 'waiting' };
      const uploads = (detail?.evidence ?? []).filter((file) => file.state !== 'uploaded');
      const bytes = uploads.reduce((sum, file) => sum + file.size, 0);
      const sent = uploads.reduce((sum, file) => sum + file.sentBytes, 0);
      bar.update(`Sending ${open.length} change(s)`, bytes ? sent : undefined, bytes || undefined);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  } finally {
    bar.end();
  }
}

/** The exit code of a delivery, with its message on stderr. */
export function deliveryExit(io: Io, link: EngineLink, what: string, d: Delivery): ExitCode {
  if (d.outcome === 'sent') {
    say(io, `${what}: sent.`);
    return EXIT.ok;
  }
  if (d.outcome === 'refused') {
    const why = d.error ? `${d.error.title}. ${d.error.advice}` : 'the service refused it.';
    say(io, `${what}: refused by the service: ${why}`);
    return EXIT.server;
  }
  const who =
    link.via === 'app' ? 'the app sends it' : 'the app, or the next bountydesk command, sends it';
  say(
    io,
    d.reason === 'offline'
      ? `${what}: queued (offline); ${who} when the service is reachable.`
      : `${what}: queued, not confirmed yet; ${who}.`,
  );
  return EXIT.queued;
}

import type { Message } from '@shared/api';
import { messageFingerprint, type ThreadMark } from '../store';

/** The end of a thread as just read: every later message came after this point. */
export function markOf(thread: readonly Message[]): ThreadMark {
  return { lastId: thread.at(-1)?.id ?? null, count: thread.length };
}

/**
 * The researcher messages posted after `mark`. Messages are never deleted and the list is oldest
 * first, so the marked message is found again; should it not be, the count stands in for it.
 */
export function messagesSince(thread: readonly Message[], mark: ThreadMark): Message[] {
  const at = mark.lastId === null ? -1 : thread.findIndex((m) => m.id === mark.lastId);
  const start = mark.lastId === null ? 0 : at >= 0 ? at + 1 : mark.count;
  return thread.slice(start).filter((m) => m.author === 'researcher');
}

/**
 * Whether a post of this body and these files could have been carried out since `mark`. Only
 * such a message can be our own attempt: an older one with the same text was someone else's
 * (the website, another device, or this app earlier), and counting it would lose ours.
 */
export function postedSince(
  thread: readonly Message[],
  mark: ThreadMark,
  body: string,
  files: readonly string[],
): boolean {
  const fingerprint = messageFingerprint(body, files);
  return messagesSince(thread, mark).some(
    (m) =>
      messageFingerprint(
        m.body,
        m.attachments.map((a) => a.id),
      ) === fingerprint,
  );
}

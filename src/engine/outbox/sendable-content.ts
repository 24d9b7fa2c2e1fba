import { contentOf, sameContent } from '@shared/bridge/draft-content';
import type { DraftContent } from '@shared/bridge/views';
import { findFileLinks, removeFileLinks } from '@shared/rules';
import type { Draft, Store } from '../store';

/**
 * The draft as it may be sent now: a link to a file that is not a ready file on the server yet is
 * sent as plain text, and the save queued after that file's upload sends the link. So no save
 * ever links a file before it is ready, however the queue was coalesced. A link to another
 * report's file is never sent.
 */
export function sendableContent(
  store: Store,
  reportId: string,
  content: DraftContent,
): DraftContent {
  const attachments = store.reports.getReport(reportId)?.attachments ?? {};
  let description = content.description;
  const pending = new Set(
    findFileLinks(description)
      .filter((link) => link.reportId !== reportId || attachments[link.fileId]?.state !== 'ready')
      .map((link) => link.fileId),
  );
  for (const fileId of pending) description = removeFileLinks(description, fileId);
  return { ...content, description };
}

/**
 * Whether the server holds this draft as a save would send it now. It does not when a change was
 * kept here and never queued: its sending was discarded, or it fails a local check. With nothing
 * queued, that is what the editor must say rather than "sent".
 */
export function serverHasDraft(store: Store, draft: Draft): boolean {
  if (!draft.base) return !draft.localOnly;
  const content = contentOf(draft);
  // Read on every open of a report: the common case (what was sent is what is here) costs a
  // comparison; only a draft that differs has its description parsed for its file links.
  if (sameContent(content, draft.base)) return true;
  return sameContent(sendableContent(store, draft.reportId, content), draft.base);
}

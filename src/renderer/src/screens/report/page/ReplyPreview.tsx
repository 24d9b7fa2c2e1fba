import { Markdown } from '../../../components/Markdown';

/**
 * The reply as the thread will show it: the same sanitized renderer as the messages above, live
 * while the researcher types (raw HTML stays text, links ask before they leave the app).
 */
export function ReplyPreview({ body }: { body: string }) {
  return (
    <section aria-label="Reply preview" className="reply-preview message message-researcher">
      {body.trim() === '' ? (
        <p className="muted">Nothing to preview yet.</p>
      ) : (
        <Markdown source={body} headingOffset={3} />
      )}
    </section>
  );
}

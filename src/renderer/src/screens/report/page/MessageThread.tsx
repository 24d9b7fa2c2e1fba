import type { Message } from '@shared/api';
import { Markdown } from '../../../components/Markdown';
import { formatBytes, formatTime } from '../../../lib/format';
import { authorName } from '../../../lib/timeline';

export function MessageThread({
  messages,
  reportId,
  onDownload,
}: {
  messages: Message[];
  reportId: string;
  onDownload(fileId: string, name: string): void;
}) {
  return (
    <section aria-labelledby="messages-heading" className="messages">
      <h2 id="messages-heading">Messages</h2>
      {messages.length === 0 ? <p className="muted">No messages yet.</p> : null}
      {messages.map((m) => {
        const name = `${m.author} at ${formatTime(m.at)}`;
        return (
          <article key={m.id} aria-label={name} className={`message message-${m.author}`}>
            <header className="message-head">
              <strong>{authorName(m.author)}</strong>{' '}
              <span className="muted">{formatTime(m.at)}</span>
            </header>
            <Markdown
              source={m.body}
              headingOffset={3}
              onDownload={(t, label) => {
                if (t.reportId === reportId) onDownload(t.fileId, label);
              }}
            />
            {m.attachments.length > 0 ? (
              <ul className="message-files" aria-label="Attachments">
                {m.attachments.map((f) => (
                  <li key={f.id}>
                    <button type="button" onClick={() => onDownload(f.id, f.name)}>
                      Download {f.name}
                    </button>{' '}
                    <span className="muted">{formatBytes(f.size)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </article>
        );
      })}
    </section>
  );
}

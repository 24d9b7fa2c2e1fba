import { useState } from 'react';
import { useSession } from '../stores/session';
import { navigate } from '../stores/router';
import type { InboxItem } from '../../../shared/bridge/views';

const NONE: InboxItem[] = [];

function itemText(unread: number, needsInfo: boolean): string {
  const parts: string[] = [];
  if (needsInfo) parts.push('the triage team asks for more information');
  if (unread > 0) parts.push(unread === 1 ? '1 new message' : `${unread} new messages`);
  return parts.join('; ');
}

/**
 * The inbox: reports whose thread has unread triage messages or an unanswered question, counted
 * on the button in the navigation. Opening a report's thread reads it (the engine keeps that).
 */
export function Inbox() {
  const inbox = useSession((s) => s.status?.inbox) ?? NONE;
  const [open, setOpen] = useState(false);
  const count = inbox.length;
  return (
    <div className="inbox">
      <button
        type="button"
        className={`inbox-button${count > 0 ? ' has-items' : ''}`}
        aria-expanded={open}
        aria-controls="inbox-panel"
        onClick={() => setOpen((o) => !o)}
      >
        {/* The name is the visible text: "Inbox", or "Inbox 3 waiting" (axe: label in name). */}
        Inbox
        {count > 0 ? (
          <>
            {' '}
            <span className="inbox-count">{count}</span>
            <span className="visually-hidden"> waiting</span>
          </>
        ) : null}
      </button>
      {open ? (
        <section id="inbox-panel" aria-label="Inbox" className="inbox-panel card">
          {count === 0 ? (
            <p className="muted">Nothing waiting for you.</p>
          ) : (
            <ul className="inbox-list">
              {inbox.map((item) => (
                <li key={item.reportId}>
                  <a
                    href={`#/reports/${encodeURIComponent(item.reportId)}`}
                    onClick={(e) => {
                      e.preventDefault();
                      setOpen(false);
                      navigate({ name: 'report', reportId: item.reportId });
                    }}
                  >
                    {item.title.trim() || 'Untitled report'}
                  </a>{' '}
                  <span className="muted">{itemText(item.unread, item.needsInfo)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}

import { useEffect, useRef, useState, type RefObject } from 'react';
import { useSession } from '../stores/session';
import { useRouter } from '../stores/router';
import type { InboxItem } from '@shared/bridge/views';
import { RouteLink } from '../components/RouteLink';
import { listen, onDocument } from '../lib/listen';

const NONE: InboxItem[] = [];

function itemText(unread: number, needsInfo: boolean): string {
  const parts: string[] = [];
  if (needsInfo) parts.push('the triage team asks for more information');
  if (unread > 0) parts.push(unread === 1 ? '1 new message' : `${unread} new messages`);
  return parts.join('; ');
}

/**
 * The panel closes as a menu does: Escape (the focus goes back to the button), a click anywhere
 * outside it, and a move to another screen.
 */
function useDismiss(
  open: boolean,
  close: () => void,
  box: RefObject<HTMLDivElement | null>,
  button: RefObject<HTMLButtonElement | null>,
): void {
  const route = useRouter((s) => s.route);
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    closeRef.current();
  }, [route]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      closeRef.current();
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent): void => {
      if (e.target instanceof Node && box.current?.contains(e.target)) return;
      closeRef.current();
    };
    return listen(onDocument('keydown', onKey), onDocument('pointerdown', onPointer));
  }, [open, box, button]);
}

/** Where the panel starts: under the status bar, so "Sync now" stays visible and reachable. */
function panelTop(): number {
  return document.querySelector('.status-bar')?.getBoundingClientRect().bottom ?? 0;
}

/**
 * The inbox: reports whose thread has unread triage messages or an unanswered question, counted
 * on the button in the navigation. Opening a report's thread reads it (the engine keeps that).
 */
export function Inbox() {
  const inbox = useSession((s) => s.status?.inbox) ?? NONE;
  const [open, setOpen] = useState(false);
  const [top, setTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, () => setOpen(false), box, button);
  const count = inbox.length;
  return (
    <div className="inbox" ref={box}>
      <button
        ref={button}
        type="button"
        className={`inbox-button${count > 0 ? ' has-items' : ''}`}
        aria-expanded={open}
        aria-controls="inbox-panel"
        onClick={() => {
          setTop(panelTop());
          setOpen((o) => !o);
        }}
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
        <section
          id="inbox-panel"
          aria-label="Inbox"
          className="inbox-panel card"
          style={{ top: `${top}px` }}
        >
          {count === 0 ? (
            <p className="muted">Nothing waiting for you.</p>
          ) : (
            <ul className="inbox-list">
              {inbox.map((item) => (
                <li key={item.reportId}>
                  <RouteLink
                    to={{ name: 'report', reportId: item.reportId }}
                    onFollow={() => setOpen(false)}
                  >
                    {item.title.trim() || 'Untitled report'}
                  </RouteLink>{' '}
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

import { useRef, useState, type KeyboardEvent } from 'react';
import { sanitizeEditorHref } from '../lib/safe-url';
import { FORMAT_BUTTONS, ariaShortcut, shortcutText, type FormatAction } from './format-buttons';

interface EditorToolbarProps {
  disabled: boolean;
  /** The toggles that are on where the selection is (shown pressed). */
  pressed: readonly FormatAction[];
  onFormat(action: FormatAction, href?: string): void;
  /** Puts the caret back in the editor (after the link form closes). */
  onReturn(): void;
  linkOpen: boolean;
  setLinkOpen(open: boolean): void;
}

/**
 * The description's formatting toolbar: one Tab stop, arrow keys between its buttons (the ARIA
 * toolbar pattern), each button naming its shortcut. "Link" asks for the address in a small form
 * (http, https, mailto or a file of the report; anything else is refused with a reason).
 */
export function EditorToolbar(props: EditorToolbarProps) {
  const [active, setActive] = useState(0);
  const [href, setHref] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>): void {
    const last = FORMAT_BUTTONS.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? active === last
          ? 0
          : active + 1
        : e.key === 'ArrowLeft'
          ? active === 0
            ? last
            : active - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    setActive(next);
    buttons.current[next]?.focus();
  }

  function closeLink(): void {
    props.setLinkOpen(false);
    setHref('');
    setProblem(null);
    props.onReturn();
  }

  function addLink(): void {
    const safe = sanitizeEditorHref(href.trim());
    if (safe === '') {
      setProblem('Use an address starting with https://, http:// or mailto:.');
      return;
    }
    props.setLinkOpen(false);
    setHref('');
    setProblem(null);
    props.onFormat('link', safe);
  }

  return (
    <>
      <div
        role="toolbar"
        aria-label="Formatting"
        aria-controls="description-editor"
        className="editor-toolbar"
        onKeyDown={onKeyDown}
      >
        {FORMAT_BUTTONS.map((b, i) => (
          <button
            key={b.action}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            className={`format-${b.action}`}
            tabIndex={i === active ? 0 : -1}
            disabled={props.disabled}
            aria-label={b.label}
            aria-pressed={b.toggle ? props.pressed.includes(b.action) : undefined}
            aria-keyshortcuts={ariaShortcut(b.keys)}
            title={`${b.label} (${shortcutText(b.keys)})`}
            // The editor keeps its selection: the button never takes the focus from it by mouse.
            onMouseDown={(e) => e.preventDefault()}
            onFocus={() => setActive(i)}
            onClick={() => {
              if (b.action === 'link') props.setLinkOpen(true);
              else props.onFormat(b.action);
            }}
          >
            {b.face}
          </button>
        ))}
      </div>
      {props.linkOpen ? (
        <form
          role="group"
          aria-label="Add a link"
          className="editor-link-form"
          onSubmit={(e) => {
            e.preventDefault();
            addLink();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              closeLink();
            }
          }}
        >
          <label>
            Link address{' '}
            <input
              spellCheck={false}
              type="url"
              value={href}
              // The form opens on a click or Mod-k to take the address at once.
              autoFocus
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={problem ? 'link-problem' : undefined}
              onChange={(e) => {
                setHref(e.target.value);
                setProblem(null);
              }}
            />
          </label>{' '}
          <button type="submit">Add link</button>{' '}
          <button type="button" onClick={closeLink}>
            Cancel
          </button>
          {problem ? (
            <span id="link-problem" className="field-error" role="alert">
              {problem}
            </span>
          ) : null}
        </form>
      ) : null}
    </>
  );
}

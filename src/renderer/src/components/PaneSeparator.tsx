import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

interface PaneSeparatorProps {
  /** The width of the pane before it, in CSS pixels. */
  value: number;
  min: number;
  max: number;
  /** `remember`: the user let go (end of a drag, a key): keep the width. */
  onChange(px: number, remember: boolean): void;
  /** The id of the pane it resizes. */
  controls: string;
  label: string;
}

const STEP = 16;
const BIG_STEP = 64;

/**
 * A vertical splitter between two panes (the WAI-ARIA window splitter): dragged with the mouse,
 * or focused and moved with the arrow keys (Shift for bigger steps), Home and End.
 */
export function PaneSeparator({ value, min, max, onChange, controls, label }: PaneSeparatorProps) {
  const drag = useRef<{ startX: number; start: number; now: number } | null>(null);
  const clamp = (px: number): number => Math.round(Math.min(max, Math.max(min, px)));

  function onPointerDown(e: PointerEvent<HTMLDivElement>): void {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    drag.current = { startX: e.clientX, start: value, now: value };
  }
  function onPointerMove(e: PointerEvent<HTMLDivElement>): void {
    const d = drag.current;
    if (!d) return;
    d.now = clamp(d.start + e.clientX - d.startX);
    onChange(d.now, false);
  }
  function onPointerUp(e: PointerEvent<HTMLDivElement>): void {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId))
      e.currentTarget.releasePointerCapture(e.pointerId);
    onChange(d.now, true);
  }
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>): void {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const next =
      e.key === 'ArrowLeft'
        ? value - step
        : e.key === 'ArrowRight'
          ? value + step
          : e.key === 'Home'
            ? min
            : e.key === 'End'
              ? max
              : null;
    if (next === null) return;
    e.preventDefault();
    onChange(clamp(next), true);
  }

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className="pane-separator"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}

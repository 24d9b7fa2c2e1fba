import { useEffect, type Ref } from 'react';

/** A list's search box: the text as typed; the list is searched a moment later. */
export function SearchInput({
  label,
  placeholder,
  className,
  text,
  onType,
  ref,
}: {
  label: string;
  placeholder: string;
  className: string;
  text: string;
  onType: (text: string) => void;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <input
      spellCheck={false}
      ref={ref}
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={text}
      onChange={(e) => onType(e.target.value)}
      className={className}
    />
  );
}

/**
 * Hands `typed` to the list 200 ms after the last key (no search per keystroke), unless the list
 * already searches for it. `commit` must keep its identity across renders.
 */
export function useSearchAfterTyping(
  typed: string,
  search: string,
  commit: (search: string) => void,
): void {
  useEffect(() => {
    if (typed === search) return;
    const t = setTimeout(() => commit(typed), 200);
    return () => clearTimeout(t);
  }, [typed, search, commit]);
}

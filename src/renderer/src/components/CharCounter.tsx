/** "N / MAX" next to a field; marked when over the limit. */
export function CharCounter({ length, max, id }: { length: number; max: number; id?: string }) {
  const over = length > max;
  return (
    <span id={id} className={over ? 'char-counter over' : 'char-counter'}>
      {length} / {max}
      {over ? ' (too long)' : ''}
    </span>
  );
}

type Tone = 'neutral' | 'info' | 'warn' | 'danger' | 'ok';

export function Badge({ children, tone = 'neutral' }: { children: string; tone?: Tone }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

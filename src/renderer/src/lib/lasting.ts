import { useEffect, useState } from 'react';

/**
 * Whether `on` has held for `ms` without a break: a line about a wait is said only once the wait
 * is long enough to read it (a reply the service took in 70 ms flashed "Reply queued…", walk 21).
 */
export function useLasting(on: boolean, ms: number): boolean {
  const [lasted, setLasted] = useState(false);
  useEffect(() => {
    if (!on) return undefined;
    const timer = setTimeout(() => setLasted(true), ms);
    return () => {
      clearTimeout(timer);
      setLasted(false);
    };
  }, [on, ms]);
  return on && lasted;
}

import { useCallback, useEffect, useState } from 'react';
import { pruneSends, verificationWaitMs } from '../../lib/verification-limit';

const KEY = 'bountyDesk.verificationSends';

function load(): number[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

/** Past sends (kept across restarts) and the live wait before the next one is allowed. */
export function useVerificationSends(): { waitMs: number; record(at?: number): void } {
  const [sends, setSends] = useState<number[]>(() => pruneSends(load(), Date.now()));
  const [now, setNow] = useState(() => Date.now());
  const waitMs = verificationWaitMs(sends, now);
  useEffect(() => {
    if (waitMs <= 0) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [waitMs]);
  const record = useCallback((at = Date.now()) => {
    setSends((prev) => {
      const next = pruneSends([...prev, at], at);
      try {
        window.localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // Without storage the limit still holds for this session.
      }
      return next;
    });
    setNow(at);
  }, []);
  return { waitMs, record };
}

/** A countdown for the auth screens (the QR code's lifetime, the sign-up's "send code" cooldown). */
import { useEffect, useState } from 'react';
import { secondsUntil } from './countdown';

/**
 * Seconds left until `until` (epoch ms; null: no countdown → 0), re-rendered every second until it reaches 0. Read
 * against the clock at each render, so a countdown that starts later than the component does begins at its full
 * length.
 */
export function useSecondsLeft(until: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= until) clearInterval(timer);
    }, 1_000);
    return () => clearInterval(timer);
  }, [until]);
  return secondsUntil(until, Date.now());
}

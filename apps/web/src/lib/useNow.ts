/** A clock for components that show an age ("3 min ago"): re-renders the caller every `ms` milliseconds. */
import { useEffect, useState } from 'react';

/** The current time (epoch ms), refreshed every `ms` milliseconds (5 s by default) while the caller is mounted. */
export function useNow(ms = 5_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * The text typed into a searching select and the query it becomes: `typed` follows every key, `q` follows it
 * `SEARCH_DEBOUNCE_MS` later, trimmed (undefined when empty), so a server search runs once the typing pauses.
 */
import { useEffect, useState } from 'react';

/** How long typing must pause before the search runs (ms). */
export const SEARCH_DEBOUNCE_MS = 300;

/** `{ typed, setTyped, q }`: the select's search text and its debounced, trimmed query. */
export function useSearchText(): { typed: string; setTyped: (text: string) => void; q: string | undefined } {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState<string | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim() || undefined), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return { typed, setTyped, q };
}

/**
 * The formula editor's completion (docs/platform-telemetry.md "Editor"): what the word at the caret can become — a
 * mounted device's alias, then `alias.key` for each key its project defines, then a function — and how choosing one
 * rewrites the text.
 */
import { FORMULA_FUNCTIONS } from '@tessera/contracts';

/** A mounted device as the editor knows it: its alias, name and keys. */
export interface TEditorDevice {
  alias: string;
  name: string;
  keys: readonly string[];
}

/** The word being typed: where it starts and its text (an alias, `alias.`, `alias.ke`, or a function's start). */
export interface TWordAtCaret {
  start: number;
  text: string;
}

/** The word that ends at `caret` in `text` (letters, digits, `_` and one `.`), or null after anything else. */
export function wordAtCaret(text: string, caret: number): TWordAtCaret | null {
  const before = text.slice(0, caret);
  const match = /[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_.-]*)?$/.exec(before);
  if (!match) return null;
  return { start: match.index, text: match[0] };
}

/** A completion: what it inserts, and what the list shows beside it. */
export interface TCompletion {
  value: string;
  /** What it names: the device's name for a key; empty for a function. */
  detail: string;
  kind: 'key' | 'function';
}

/** What `word` can become: `alias.key` for keys, aliases, then functions, each starting with what was typed. */
export function completionsFor(word: TWordAtCaret | null, devices: readonly TEditorDevice[]): TCompletion[] {
  if (!word) return [];
  const typed = word.text.toLowerCase();
  const keys = devices.flatMap((d) => d.keys.map((k) => ({ value: `${d.alias}.${k}`, detail: d.name, kind: 'key' as const })));
  if (typed.includes('.')) return keys.filter((c) => c.value.toLowerCase().startsWith(typed));
  return [
    ...devices.filter((d) => d.alias.toLowerCase().startsWith(typed)).flatMap((d) => keys.filter((k) => k.value.startsWith(`${d.alias}.`))),
    ...FORMULA_FUNCTIONS.filter((f) => f.startsWith(typed)).map((f) => ({ value: `${f}(`, detail: '', kind: 'function' as const })),
  ];
}

/** `text` with `word` replaced by `value`, and the caret after it. */
export function applyCompletion(text: string, word: TWordAtCaret, value: string): { text: string; caret: number } {
  const next = text.slice(0, word.start) + value + text.slice(word.start + word.text.length);
  return { text: next, caret: word.start + value.length };
}

/** The next free alias `m1`, `m2`, … not in `taken`. */
export function nextAlias(taken: readonly string[]): string {
  for (let n = 1; ; n += 1) if (!taken.includes(`m${n}`)) return `m${n}`;
}

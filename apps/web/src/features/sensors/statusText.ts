/** The text form of a status group's values, `value=label,value=label` (the easy-import format's last field). */
import type { TStatusGroup } from '@tessera/contracts';

/** Values → `0=Idle,1=Run`. */
export function valuesToText(values: TStatusGroup['values']): string {
  return values.map((v) => `${v.value}=${v.label}`).join(',');
}

/** `0=Idle,1=Run` → values, or null when a part is not `digits=label`. Empty text → no values. */
export function textToValues(text: string): TStatusGroup['values'] | null {
  if (text.trim() === '') return [];
  const out: TStatusGroup['values'] = [];
  for (const part of text.split(',')) {
    const [v, label, ...rest] = part.split('=');
    if (rest.length || !/^\s*\d+\s*$/.test(v ?? '') || !label?.trim()) return null;
    out.push({ value: Number(v), label: label.trim() });
  }
  return out;
}

/** A typed sample word → its number: decimal, `0x…` hex or `0b…` binary; null when unreadable. */
export function parseSampleWord(text: string): number | null {
  const s = text.trim().replace(/_/g, '');
  const n = /^0x[0-9a-f]+$/i.test(s)
    ? Number.parseInt(s.slice(2), 16)
    : /^0b[01]+$/i.test(s)
      ? Number.parseInt(s.slice(2), 2)
      : /^\d+$/.test(s)
        ? Number(s)
        : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
}

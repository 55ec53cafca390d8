/** The name a revision's file is kept under (docs/decisions/ai.md "Uploads"): what the browser sent, made safe to show and send back. */
import { AI_MODEL_FILE_NAME_MAX } from '@tessera/contracts';

/** The name given to a file uploaded without one. */
export const DEFAULT_MODEL_FILE_NAME = 'model.bin';
/** An extension this long or shorter (dot included) survives a cut. */
const EXTENSION_MAX = 16;

/**
 * `name` without any folder part (some browsers send a whole path) or control characters, trimmed, cut to
 * AI_MODEL_FILE_NAME_MAX characters keeping its extension; {@link DEFAULT_MODEL_FILE_NAME} when nothing is left.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!clean) return DEFAULT_MODEL_FILE_NAME;
  const chars = Array.from(clean);
  if (chars.length <= AI_MODEL_FILE_NAME_MAX) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= EXTENSION_MAX ? Array.from(clean.slice(dot)) : [];
  return chars.slice(0, AI_MODEL_FILE_NAME_MAX - extension.length).join('') + extension.join('');
}

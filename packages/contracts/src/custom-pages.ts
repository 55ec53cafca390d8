/**
 * Project custom page (spec §2 project detail tab "custom-page", §3 "custom page (HTML file)", §5 "Custom page title
 * required, max 32 (one reading) or 20 (another)", §7 "custom page: GET, PUT multipart htmlFile, DELETE").
 * A vendor uploads one UTF-8 HTML file per project; vendors and the project's users view it in a sandboxed iframe
 * fed with live device data by `postMessage`. Decisions: docs/decisions/custom-pages.md; page-author API:
 * docs/custom-pages.md.
 */
import { z } from 'zod';
import { API } from './api-paths.js';

/** §5: the title bound. Decision: 32 — the spec's "required, max 32" reading, as for token and platform-telemetry names. */
export const CUSTOM_PAGE_TITLE_MAX = 32;
/** The largest HTML file accepted, in bytes (1 MiB; a Tessera decision, spec: not shown). */
export const CUSTOM_PAGE_MAX_BYTES = 1024 * 1024;
/** How long a view URL (its signed token) may be opened, in seconds. */
export const CUSTOM_PAGE_VIEW_TTL_S = 300;

/** §7 "PUT multipart htmlFile": the multipart field of the file, and of the title. */
export const CUSTOM_PAGE_FILE_FIELD = 'htmlFile';
export const CUSTOM_PAGE_TITLE_FIELD = 'title';

/** Paths: the API (bearer token) and the page itself (signed view token in `?t=`, no bearer: an iframe sends none). */
export const customPagePaths = {
  page: (projectId: number) => `${API.frontstage}/projects/${projectId}/custom-page`,
  view: (projectId: number) => `/pages/custom-page/${projectId}`,
} as const;

/**
 * Error codes: PUT answers 413 TooLarge over {@link CUSTOM_PAGE_MAX_BYTES} and 415 Type for a file that is not a UTF-8
 * HTML document; opening a page answers 401 LinkExpired / LinkInvalid for a view token that is expired, or forged,
 * missing or for another page.
 */
export const CustomPageErrorCode = {
  TooLarge: 'CUSTOM_PAGE_TOO_LARGE',
  Type: 'CUSTOM_PAGE_TYPE',
  LinkExpired: 'CUSTOM_PAGE_LINK_EXPIRED',
  LinkInvalid: 'CUSTOM_PAGE_LINK_INVALID',
} as const;

/** `?t=` of the page URL: the view token (optional here so that a missing one answers 401, not 400). */
export const ZCustomPageViewQuery = z.object({ t: z.string().max(2048).optional() });

/** §5: the page title, trimmed, 1 to {@link CUSTOM_PAGE_TITLE_MAX} characters. */
export const ZCustomPageTitle = z.string().trim().min(1).max(CUSTOM_PAGE_TITLE_MAX);
/** The non-file fields of PUT (also the console form's schema). */
export const ZCustomPageFields = z.object({ title: ZCustomPageTitle });
export type TCustomPageFields = z.infer<typeof ZCustomPageFields>;

/**
 * GET/PUT answer: the page's metadata and a short-lived URL to open it with (relative to the console, or on
 * PAGES_ORIGIN when the platform serves pages from their own host). Times are epoch milliseconds.
 */
export const ZCustomPage = z.object({
  project_id: z.number().int(),
  title: z.string(),
  size_bytes: z.number().int(),
  /** Hex SHA-256 of the HTML: the page's revision (a new file gives a new view URL). */
  sha256: z.string(),
  updated_at: z.number().int(),
  view_url: z.string(),
  view_expires_at: z.number().int(),
});
export type TCustomPage = z.infer<typeof ZCustomPage>;

/** True when a file of `bytes` may be uploaded (the console checks before sending; the server enforces). */
export const isCustomPageSizeAllowed = (bytes: number) => bytes <= CUSTOM_PAGE_MAX_BYTES;

/** Why a file is not a page: empty, too large, not UTF-8, binary control bytes, or not HTML by the WHATWG rules. */
export type THtmlRefusal = 'empty' | 'too_large' | 'not_utf8' | 'binary' | 'not_html';

/**
 * WHATWG MIME Sniffing §7.1 "identifying a resource with an unknown MIME type": the tags whose presence at the start
 * (after whitespace), followed by a space or `>`, makes a browser call a resource text/html.
 */
const HTML_OPENERS = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];
/** WHATWG "binary data byte": a C0 control other than TAB, LF, FF, CR and ESC. */
const isBinaryByte = (b: number) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Checks that `bytes` are a page: non-empty, at most {@link CUSTOM_PAGE_MAX_BYTES}, valid UTF-8 (a BOM is allowed),
 * free of binary control bytes, and starting (after whitespace) with an HTML tag a browser sniffs as HTML — so a
 * renamed image, archive or plain-text file is refused whatever its name or declared type. Runs in the console
 * before upload and on the server.
 */
export function checkHtmlFile(bytes: Uint8Array): { ok: true; text: string } | { ok: false; reason: THtmlRefusal } {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (!isCustomPageSizeAllowed(bytes.length)) return { ok: false, reason: 'too_large' };
  const body = UTF8_BOM.every((b, i) => bytes[i] === b) ? bytes.subarray(3) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return { ok: false, reason: 'not_utf8' };
  }
  if (body.some(isBinaryByte)) return { ok: false, reason: 'binary' };
  const start = text
    .replace(/^[\t\n\f\r ]+/, '')
    .slice(0, 16)
    .toLowerCase();
  const isHtml = HTML_OPENERS.some((tag) => start.startsWith(tag) && [' ', '>'].includes(start.charAt(tag.length)));
  return isHtml ? { ok: true, text } : { ok: false, reason: 'not_html' };
}

/** A live point as the page receives it: the device protocol's `{ key, ts, vs }` (`$status` carries the status word). */
export const ZPagePoint = z.object({ key: z.string(), ts: z.number(), vs: z.array(z.number().nullable()) });

/**
 * Host → page (page-author API, docs/custom-pages.md): the device shown and its points — the latest value of every
 * key when the page is ready, then each live message as it arrives.
 */
export const ZPageTelemetryMessage = z.object({
  type: z.literal('tessera:telemetry'),
  device: z.object({ tangram_id: z.string(), name: z.string(), nickname: z.string() }),
  list: z.array(ZPagePoint),
});
export type TPageTelemetryMessage = z.infer<typeof ZPageTelemetryMessage>;

/** Largest iframe height a page may ask for, in CSS pixels. */
export const CUSTOM_PAGE_MAX_HEIGHT_PX = 4000;

/**
 * Page → host, accepted only from the host's own iframe window: `tessera:ready` asks for the current values again,
 * `tessera:resize` sets the iframe height. Anything else is ignored.
 */
export const ZPageInboundMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tessera:ready') }),
  z.object({ type: z.literal('tessera:resize'), height: z.number().int().min(0).max(CUSTOM_PAGE_MAX_HEIGHT_PX) }),
]);
export type TPageInboundMessage = z.infer<typeof ZPageInboundMessage>;

import { describe, expect, it } from 'vitest';
import {
  CUSTOM_PAGE_MAX_BYTES,
  CUSTOM_PAGE_MAX_HEIGHT_PX,
  CUSTOM_PAGE_TITLE_MAX,
  checkHtmlFile,
  customPagePaths,
  isCustomPageSizeAllowed,
  ZCustomPageFields,
  ZPageInboundMessage,
  ZPageTelemetryMessage,
} from './custom-pages.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
/** A real HTML document of exactly `total` bytes (padded inside a comment). */
function htmlOfSize(total: number): Uint8Array {
  const head = '<!DOCTYPE html><html><body><!--';
  const tail = '--></body></html>';
  return utf8(head + 'x'.repeat(total - head.length - tail.length) + tail);
}

describe('custom page title (§5 required, max 32)', () => {
  it('takes 1 to 32 characters, trimmed, and refuses empty, blank and 33', () => {
    expect(CUSTOM_PAGE_TITLE_MAX).toBe(32);
    expect(ZCustomPageFields.parse({ title: '  儀表板  ' })).toEqual({ title: '儀表板' });
    expect(ZCustomPageFields.safeParse({ title: '頁'.repeat(32) }).success).toBe(true);
    expect(ZCustomPageFields.safeParse({ title: '頁'.repeat(33) }).success).toBe(false);
    expect(ZCustomPageFields.safeParse({ title: '' }).success).toBe(false);
    expect(ZCustomPageFields.safeParse({ title: '   ' }).success).toBe(false);
    expect(ZCustomPageFields.safeParse({}).success).toBe(false);
  });
});

describe('custom page file (UTF-8 HTML, at most 1 MiB)', () => {
  it('accepts exactly CUSTOM_PAGE_MAX_BYTES and refuses one byte more', () => {
    expect(CUSTOM_PAGE_MAX_BYTES).toBe(1_048_576);
    expect(isCustomPageSizeAllowed(CUSTOM_PAGE_MAX_BYTES)).toBe(true);
    expect(isCustomPageSizeAllowed(CUSTOM_PAGE_MAX_BYTES + 1)).toBe(false);
    expect(checkHtmlFile(htmlOfSize(CUSTOM_PAGE_MAX_BYTES)).ok).toBe(true);
    expect(checkHtmlFile(htmlOfSize(CUSTOM_PAGE_MAX_BYTES + 1))).toEqual({ ok: false, reason: 'too_large' });
  });

  it('accepts documents a browser sniffs as HTML, with leading whitespace, a BOM or non-ASCII text', () => {
    for (const doc of [
      '<!DOCTYPE html><title>x</title>',
      '<!doctype HTML>\n<p>ok',
      '\n\t  <html lang="zh-TW"><body>溫度</body></html>',
      '<!-- a comment --><div>x</div>',
      '<script>1</script>',
      '<p>',
    ]) {
      const result = checkHtmlFile(utf8(doc));
      expect(result.ok, doc).toBe(true);
    }
    const withBom = checkHtmlFile(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('<html></html>')]));
    expect(withBom).toEqual({ ok: true, text: '<html></html>' });
  });

  it('refuses an empty file, plain text, JSON, SVG, a tag that only looks like a listed one, and XML', () => {
    expect(checkHtmlFile(new Uint8Array())).toEqual({ ok: false, reason: 'empty' });
    for (const doc of [
      'hello <html>',
      '{"html":true}',
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<header>',
      '<?xml version="1.0"?>',
      '<pre>x</pre>',
    ]) {
      expect(checkHtmlFile(utf8(doc)), doc).toEqual({ ok: false, reason: 'not_html' });
    }
  });

  it('refuses a renamed binary: invalid UTF-8 (a PNG) and control bytes (NUL in an otherwise HTML file)', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(checkHtmlFile(png)).toEqual({ ok: false, reason: 'not_utf8' });
    expect(checkHtmlFile(new Uint8Array([...utf8('<html>'), 0xc3, 0x28]))).toEqual({ ok: false, reason: 'not_utf8' });
    expect(checkHtmlFile(new Uint8Array([...utf8('<html>'), 0x00, ...utf8('</html>')]))).toEqual({ ok: false, reason: 'binary' });
    // A PDF starts with printable ASCII, then binary.
    expect(checkHtmlFile(new Uint8Array([...utf8('%PDF-1.7\n'), 0x01, 0x02]))).toEqual({ ok: false, reason: 'binary' });
  });
});

describe('page messages (docs/custom-pages.md)', () => {
  it('has the documented telemetry shape', () => {
    const message = {
      type: 'tessera:telemetry',
      device: { tangram_id: '54ABC', name: 'Boiler', nickname: '' },
      list: [{ key: 'temperature', ts: 1767225600000, vs: [23.5] }],
    };
    expect(ZPageTelemetryMessage.parse(message)).toEqual(message);
  });

  it('accepts only ready and resize within bounds from a page', () => {
    expect(ZPageInboundMessage.safeParse({ type: 'tessera:ready' }).success).toBe(true);
    expect(ZPageInboundMessage.safeParse({ type: 'tessera:resize', height: CUSTOM_PAGE_MAX_HEIGHT_PX }).success).toBe(true);
    expect(ZPageInboundMessage.safeParse({ type: 'tessera:resize', height: CUSTOM_PAGE_MAX_HEIGHT_PX + 1 }).success).toBe(false);
    expect(ZPageInboundMessage.safeParse({ type: 'tessera:resize', height: -1 }).success).toBe(false);
    expect(ZPageInboundMessage.safeParse({ type: 'tessera:navigate', to: '/logout' }).success).toBe(false);
    expect(ZPageInboundMessage.safeParse('tessera:ready').success).toBe(false);
  });

  it('names the API and view paths', () => {
    expect(customPagePaths.page(7)).toBe('/frontstage/v1/projects/7/custom-page');
    expect(customPagePaths.view(7)).toBe('/pages/custom-page/7');
  });
});

/**
 * Counts the error dialogs a page shows (antd `Modal.error`, `message.error`, `notification.error`: what the console
 * uses to tell a person something failed), including those that appear and fade between two checks: a script added to
 * the context records every one as it is added to the DOM.
 */
import type { BrowserContext, Page } from 'playwright-core';

/** One error dialog seen: which kind and its text. */
export interface TErrorDialog {
  kind: 'modal' | 'message' | 'notification';
  text: string;
}

/** What the recording script keeps on `window`. */
interface TRecordingWindow {
  __errorDialogs?: TErrorDialog[];
}

/** antd's class of each kind of error dialog (antd 6). */
const SELECTORS = {
  modal: '.ant-modal-confirm-error',
  message: '.ant-message-notice-icon-error, .ant-message-error',
  notification: '.ant-notification-notice-icon-error',
} as const;

/** Starts recording in every page of `context` (call before its pages open). */
export async function recordErrorDialogs(context: BrowserContext): Promise<void> {
  await context.addInitScript((selectors: typeof SELECTORS) => {
    const seen = new WeakSet<Element>();
    const record: TErrorDialog[] = [];
    (window as TRecordingWindow).__errorDialogs = record;
    const scan = () => {
      for (const [kind, selector] of Object.entries(selectors) as [TErrorDialog['kind'], string][]) {
        for (const el of Array.from(document.querySelectorAll(selector))) {
          const box = el.closest('.ant-modal, .ant-message-notice, .ant-notification-notice') ?? el;
          if (seen.has(box)) continue;
          seen.add(box);
          record.push({ kind, text: (box.textContent ?? '').trim().slice(0, 200) });
        }
      }
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true });
  }, SELECTORS);
}

/** The error dialogs `page` has shown since it was loaded, and forgets them (so the next call counts afresh). */
export function takeErrorDialogs(page: Page): Promise<TErrorDialog[]> {
  return page.evaluate(() => {
    const record = (window as TRecordingWindow).__errorDialogs ?? [];
    return record.splice(0, record.length);
  });
}

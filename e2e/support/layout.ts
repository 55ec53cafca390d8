/**
 * Layout checks for e2e tests: the page must never be wider than the window (a phone would scroll sideways), and the
 * viewports the console is checked at.
 */
import type { Page } from 'playwright-core';

/** A phone (iPhone 12–15 class) and a desktop, in CSS pixels. */
export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1440, height: 900 } as const;

/** How far the page overflows the window sideways, and the widest elements that stick out (for the failure message). */
export interface THorizontalOverflow {
  /** `document.documentElement.scrollWidth - clientWidth`, in px; 0 when the page fits. */
  overflowPx: number;
  /** Up to five elements whose right edge is past the window, deepest first: `tag#id.class[data-testid] right=…`. */
  culprits: string[];
}

/** Measures the page's horizontal overflow now. */
export function measureHorizontalOverflow(page: Page): Promise<THorizontalOverflow> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : '';
      const testId = el.getAttribute('data-testid');
      return `${el.tagName.toLowerCase()}${id}${cls}${testId ? `[data-testid=${testId}]` : ''} right=${Math.round(el.getBoundingClientRect().right)}`;
    };
    const sticking = Array.from(document.body.querySelectorAll('*')).filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > width + 1 && getComputedStyle(el).position !== 'fixed';
    });
    // Deepest first: an element none of whose descendants sticks out is where the width comes from.
    const deepest = sticking.filter((el) => !sticking.some((other) => other !== el && el.contains(other)));
    return { overflowPx: root.scrollWidth - width, culprits: deepest.slice(0, 5).map(describe) };
  });
}

/**
 * Fails when the page is wider than the window (`document.documentElement.scrollWidth > clientWidth`), naming the
 * elements that stick out.
 * @throws an Error naming `label`, the overflow in px and the culprits.
 */
export async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const { overflowPx, culprits } = await measureHorizontalOverflow(page);
  if (overflowPx > 0) throw new Error(`${label}: the page is ${overflowPx}px wider than the window; sticking out: ${culprits.join(' | ')}`);
}

/**
 * antd Table `onRow` props for a row that opens something (a device's page, an alert's drawer): by a click, and —
 * focusable with Tab — by Enter or Space, so the list works with the keyboard alone (docs/decisions/console.md
 * "Keyboard and screen readers"). Keys pressed on a control inside the row (a button) stay that control's.
 */
import type { HTMLAttributes, KeyboardEvent } from 'react';

/** Row props: `data-testid`, focusable, opens with `open` on click, Enter or Space. */
export function openableRow(testId: string, open: () => void): HTMLAttributes<HTMLElement> {
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    open();
  };
  return { 'data-testid': testId, tabIndex: 0, style: { cursor: 'pointer' }, onClick: open, onKeyDown } as HTMLAttributes<HTMLElement>;
}

/**
 * Phone width (issue "console on a phone"): below antd's `md` breakpoint (768 px) the shell shows its menu in a
 * drawer and the header's account links in one menu, and wide content (the flow editor) switches to its compact form.
 */
import { Grid } from 'antd';

/** Width in px from which the console lays out for a desktop or tablet (antd's `md`). */
export const PHONE_BELOW_PX = 768;

/** True while the viewport is narrower than {@link PHONE_BELOW_PX}; false until antd has measured it. */
export function useIsPhone(): boolean {
  return Grid.useBreakpoint().md === false;
}

/** True once antd has measured the viewport at {@link PHONE_BELOW_PX} or wider; false before and below it. */
export function useIsWide(): boolean {
  return Grid.useBreakpoint().md === true;
}

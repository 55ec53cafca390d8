/** antd Table `onRow` giving each row a stable `data-testid` of `<prefix>-row-<id>` (for the e2e tests). */
import type { HTMLAttributes } from 'react';

/** Row props carrying the test id. */
export function rowTestId<T extends { id: number | string }>(prefix: string) {
  return (record: T): HTMLAttributes<HTMLElement> => ({ 'data-testid': `${prefix}-row-${record.id}` }) as HTMLAttributes<HTMLElement>;
}

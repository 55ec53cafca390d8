/**
 * A line of text in antd's text colours (the theme's tokens, as antd's `Typography.Text` colours them: secondary,
 * warning, danger), for the pages every login opens first (the layout's header, the dashboard's widgets). antd's
 * Typography brings its editing, copying and ellipsis tooltips to every page that uses it: about 6 KB br of the
 * layout's chunk that no page used (docs/web-bundle.md). `ellipsisWidthPx` cuts a long line with "…".
 */
import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/** Props: the colour (`type`), a test id, an ellipsis with the widest the text may be, and extra style. */
export interface TTextProps {
  children?: ReactNode;
  type?: 'secondary' | 'warning' | 'danger';
  testId?: string;
  /** The widest the text may be before it is cut with "…" (px). */
  ellipsisWidthPx?: number;
  style?: CSSProperties;
}

/** A span of text in the theme's colour for `type`. */
export function Text({ children, type, testId, ellipsisWidthPx, style }: TTextProps) {
  const { token } = theme.useToken();
  const color = type
    ? { secondary: token.colorTextDescription, warning: token.colorWarningText, danger: token.colorErrorText }[type]
    : token.colorText;
  const cut: CSSProperties =
    ellipsisWidthPx === undefined
      ? {}
      : {
          display: 'inline-block',
          maxWidth: ellipsisWidthPx,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          verticalAlign: 'bottom',
        };
  return (
    <span data-testid={testId} style={{ color, wordBreak: 'break-word', ...cut, ...style }}>
      {children}
    </span>
  );
}

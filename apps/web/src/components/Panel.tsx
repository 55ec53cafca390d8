/**
 * A bordered panel with a header line (title on the left, controls on the right) and a body: antd's `Card` as it
 * looks, drawn with antd's theme tokens (border, radius, header height and padding, body padding, text colours) in
 * light and dark mode. antd's Card imports antd's Tabs (its tab list) and Form's variant hook, which brings the whole
 * form library (`@rc-component/form`) to any page with a Card; the dashboard and its widgets use this instead
 * (docs/web-bundle.md). Like antd's Card it is a plain `div`: no landmark, no heading.
 */
import { theme } from 'antd';
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

/**
 * Props: the header's `title` and `extra` (no header when both are empty), `size` as antd Card's (`small`: 38 px header,
 * 12 px padding at the default theme), and the styles of the header and the body; any other `div` attribute
 * (`data-testid`, `style`…) goes to the panel's outer element.
 */
export interface TPanelProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  title?: ReactNode;
  extra?: ReactNode;
  size?: 'default' | 'small';
  headerStyle?: CSSProperties;
  bodyStyle?: CSSProperties;
}

/** A card-like panel in the theme's colours and sizes. */
export function Panel({ title, extra, size = 'default', headerStyle, bodyStyle, style, children, ...rest }: TPanelProps) {
  const { token } = theme.useToken();
  const small = size === 'small';
  const radius = token.borderRadiusLG;
  const divider = `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`;
  // The header's height and padding are antd Card's component tokens (card/style: headerHeight, headerHeightSM).
  const headerHeight = small
    ? token.fontSize * token.lineHeight + token.paddingXS * 2
    : token.fontSizeLG * token.lineHeightLG + token.padding * 2;
  const hasHeader = Boolean(title) || Boolean(extra);
  return (
    <div
      {...rest}
      style={{
        boxSizing: 'border-box',
        position: 'relative',
        margin: 0,
        padding: 0,
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
        background: token.colorBgContainer,
        border: divider,
        borderRadius: radius,
        ...style,
      }}
    >
      {hasHeader && (
        <div
          style={{
            boxSizing: 'border-box',
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'center',
            minHeight: headerHeight,
            marginBottom: -token.lineWidth,
            padding: `0 ${small ? 12 : token.paddingLG}px`,
            color: token.colorTextHeading,
            fontWeight: token.fontWeightStrong,
            fontSize: small ? token.fontSize : token.fontSizeLG,
            borderBottom: divider,
            borderRadius: `${radius}px ${radius}px 0 0`,
            ...headerStyle,
          }}
        >
          <div style={{ display: 'flex', alignItems: 'center', width: '100%' }}>
            <div style={{ flex: 1, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }}>{title}</div>
            {extra && (
              <div style={{ marginInlineStart: 'auto', color: token.colorText, fontWeight: 400, fontSize: token.fontSize }}>{extra}</div>
            )}
          </div>
        </div>
      )}
      <div
        style={{
          boxSizing: 'border-box',
          padding: small ? 12 : token.paddingLG,
          borderRadius: hasHeader ? `0 0 ${radius}px ${radius}px` : radius,
          ...bodyStyle,
        }}
      >
        {children}
      </div>
    </div>
  );
}

/**
 * The frame of the login screens: a centred card with the product name and the language switch. Drawn with antd's
 * theme tokens rather than antd's Card and Typography, whose code (Card brings Tabs and their overflow menu,
 * Typography its tooltips) the login page would otherwise download for a box and a heading (docs/web-bundle.md).
 */
import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch';

/** Wraps one auth screen. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const divider = `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`;
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      style={{ minHeight: '100vh', boxSizing: 'border-box', background: token.colorBgLayout, padding: 16 }}
    >
      <Flex justify="space-between" align="center" style={{ width: 400, maxWidth: '100%', marginBottom: 16 }}>
        <h1 style={{ margin: 0, fontSize: token.fontSizeHeading3, fontWeight: token.fontWeightStrong, color: token.colorTextHeading }}>
          {t('auth.title')}
        </h1>
        <LanguageSwitch />
      </Flex>
      <section
        aria-label={title}
        style={{
          width: 400,
          maxWidth: '100%',
          boxSizing: 'border-box',
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          border: divider,
        }}
      >
        <h2
          style={{
            margin: 0,
            padding: `${token.paddingSM}px ${token.paddingLG}px`,
            borderBottom: divider,
            fontSize: token.fontSizeLG,
            fontWeight: token.fontWeightStrong,
            color: token.colorTextHeading,
          }}
        >
          {title}
        </h2>
        <div style={{ padding: token.paddingLG }}>{children}</div>
      </section>
    </Flex>
  );
}

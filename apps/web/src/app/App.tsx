/**
 * Providers of the console: TanStack Query, antd (locale follows the language: zh_TW / en_US; motion off when the
 * viewer prefers reduced motion; the dark algorithm when the console is dark, lib/colorScheme), and the router.
 * antd's App (message, modal and notification contexts) is around the pages that use it (AntAppOutlet.tsx), not
 * around /login.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import type { TLanguage } from '@tessera/contracts';
import { ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhTW from 'antd/locale/zh_TW';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router/dom';
import { type TColorScheme, useColorScheme } from '../lib/colorScheme';
import { queryClient } from '../lib/query';
import { useReducedMotion } from '../lib/reducedMotion';
import { router } from './router';

const ANTD_LOCALE = { 'zh-TW': zhTW, en: enUS } satisfies Record<TLanguage, typeof enUS>;
const ALGORITHM = { light: theme.defaultAlgorithm, dark: theme.darkAlgorithm } satisfies Record<TColorScheme, unknown>;

/**
 * Light-scheme colours darker than antd's, so text meets WCAG AA contrast (4.5:1) on white and on the grey layout
 * (docs/decisions/console.md "Keyboard and screen readers"): links (antd's #1677ff is 4.1:1 on white), secondary,
 * description and placeholder text (45 % and 25 % black: 3.4:1 and less) and the danger colour (#ff4d4f: 3.3:1).
 * The dark scheme keeps antd's.
 */
const LIGHT_CONTRAST = {
  colorLink: '#0958d9',
  colorTextTertiary: 'rgba(0, 0, 0, 0.57)',
  colorTextDescription: 'rgba(0, 0, 0, 0.57)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.57)',
  colorError: '#cf1322',
};

/**
 * Light-scheme text colours of antd's Tag, whose status and preset tags print their text in a mid shade on a pale
 * background: success #52c41a (2.1:1 on its #f6ffed), warning #faad14, info #1677ff, and the presets green, orange,
 * gold, volcano, lime and cyan (their shade 7, 2.5–4.4:1 on shade 1). Each becomes its palette's shade 8, gold and
 * lime shade 9 (@ant-design/colors): 5.1–6.6:1 on the tag's background. Solid tags take the darker colour as their
 * background under white text, which only raises their contrast. The dark scheme keeps antd's.
 */
const LIGHT_TAG_CONTRAST = {
  colorSuccess: '#237804',
  colorWarning: '#ad4e00',
  colorInfo: '#0958d9',
  green7: '#237804',
  orange7: '#ad4e00',
  gold7: '#874d00',
  volcano7: '#ad2102',
  lime7: '#3f6600',
  cyan7: '#006d75',
};

/**
 * Dark-scheme colours lighter than antd's dark algorithm makes them, for AA contrast (4.5:1) on the #141414 cards and
 * the #1f1f1f pop-ups: links (#1668dc: 3.6:1) and the selected side-menu item and tab (#165bbe: 2.1:1 on the menu's
 * selection, 2.9:1 on a card) become the dark palette's #4096ff (4.6:1 and 6.2:1); secondary, description and
 * placeholder text (45 % and 25 % white) 60 % white (6.7:1 and more); a danger button's red text #f37370 (6:1 and
 * more), with near-black text on a solid danger button of that red. Primary buttons keep #1668dc behind their white
 * text (5.2:1).
 */
const DARK_CONTRAST = {
  colorLink: '#4096ff',
  colorLinkHover: '#69b1ff',
  colorTextTertiary: 'rgba(255, 255, 255, 0.6)',
  colorTextDescription: 'rgba(255, 255, 255, 0.6)',
  colorTextPlaceholder: 'rgba(255, 255, 255, 0.6)',
};
const DARK_COMPONENTS = {
  Menu: { itemSelectedColor: '#4096ff' },
  Tabs: { itemSelectedColor: '#4096ff' },
  Button: { colorError: '#f37370', colorErrorHover: '#f89f9a', colorErrorActive: '#e84749', dangerColor: '#141414' },
};

/**
 * Paints what lies outside antd's components in the scheme: the page behind them (the body, seen around and below
 * the layout) and the browser's own controls and scroll bars (`color-scheme`); and sets the body's text as antd's
 * App does for the pages inside it (font, size, line height), so the login page's own text looks the same.
 */
function PageColors({ scheme }: { scheme: TColorScheme }) {
  const { token } = theme.useToken();
  useEffect(() => {
    document.documentElement.style.colorScheme = scheme;
    document.documentElement.dataset.colorScheme = scheme;
    document.body.style.backgroundColor = token.colorBgLayout;
    document.body.style.color = token.colorText;
    document.body.style.fontFamily = token.fontFamily;
    document.body.style.fontSize = `${token.fontSize}px`;
    document.body.style.lineHeight = String(token.lineHeight);
  }, [scheme, token.colorBgLayout, token.colorText, token.fontFamily, token.fontSize, token.lineHeight]);
  return null;
}

/** The whole console. */
export default function App() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en' ? ANTD_LOCALE.en : ANTD_LOCALE['zh-TW'];
  const reducedMotion = useReducedMotion();
  const scheme = useColorScheme();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={locale}
        theme={{
          algorithm: ALGORITHM[scheme],
          token: { colorPrimary: '#1668dc', motion: !reducedMotion, ...(scheme === 'light' ? LIGHT_CONTRAST : DARK_CONTRAST) },
          components: scheme === 'light' ? { Tag: LIGHT_TAG_CONTRAST } : DARK_COMPONENTS,
        }}
      >
        <PageColors scheme={scheme} />
        <RouterProvider router={router} />
      </ConfigProvider>
    </QueryClientProvider>
  );
}

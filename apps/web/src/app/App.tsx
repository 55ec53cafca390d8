/**
 * Providers of the console: TanStack Query, antd (locale follows the language: zh_TW / en_US; motion off when the
 * viewer prefers reduced motion; the dark algorithm when the console is dark, lib/colorScheme), antd's App (message
 * and modal contexts for the HTTP event bridge), and the router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import type { TLanguage } from '@tessera/contracts';
import { App as AntApp, ConfigProvider, theme } from 'antd';
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
 * Paints what lies outside antd's components in the scheme: the page behind them (the body, seen around and below
 * the layout) and the browser's own controls and scroll bars (`color-scheme`).
 */
function PageColors({ scheme }: { scheme: TColorScheme }) {
  const { token } = theme.useToken();
  useEffect(() => {
    document.documentElement.style.colorScheme = scheme;
    document.documentElement.dataset.colorScheme = scheme;
    document.body.style.backgroundColor = token.colorBgLayout;
    document.body.style.color = token.colorText;
  }, [scheme, token.colorBgLayout, token.colorText]);
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
      <ConfigProvider locale={locale} theme={{ algorithm: ALGORITHM[scheme], token: { colorPrimary: '#1668dc', motion: !reducedMotion } }}>
        <PageColors scheme={scheme} />
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

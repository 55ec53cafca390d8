/**
 * Providers of the console: TanStack Query, antd (locale follows the language: zh_TW / en_US; motion off when the
 * viewer prefers reduced motion), antd's App (message and modal contexts for the HTTP event bridge), and the router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import type { TLanguage } from '@tessera/contracts';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhTW from 'antd/locale/zh_TW';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router/dom';
import { queryClient } from '../lib/query';
import { useReducedMotion } from '../lib/reducedMotion';
import { router } from './router';

const ANTD_LOCALE = { 'zh-TW': zhTW, en: enUS } satisfies Record<TLanguage, typeof enUS>;

/** The whole console. */
export default function App() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en' ? ANTD_LOCALE.en : ANTD_LOCALE['zh-TW'];
  const reducedMotion = useReducedMotion();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={locale} theme={{ token: { colorPrimary: '#1668dc', motion: !reducedMotion } }}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

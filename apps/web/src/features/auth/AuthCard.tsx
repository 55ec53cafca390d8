/** The frame of the login screens: a centred card with the product name and the language switch. */
import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch';

/** Wraps one auth screen. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      style={{ minHeight: '100vh', boxSizing: 'border-box', background: '#f0f2f5', padding: 16 }}
    >
      <Flex justify="space-between" align="center" style={{ width: 400, maxWidth: '100%', marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('auth.title')}
        </Typography.Title>
        <LanguageSwitch />
      </Flex>
      <Card title={title} style={{ width: 400, maxWidth: '100%' }}>
        {children}
      </Card>
    </Flex>
  );
}

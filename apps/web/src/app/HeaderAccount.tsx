/**
 * The header's account controls. On a desktop: the language switch, the appearance switch (light, dark, system), the
 * account's e-mail, (admins) the accounts and storage pages, profile and logout side by side. At phone width all of
 * them sit in one account menu behind an icon, so the header keeps one line (no wrapped e-mail, no stacked links).
 * Both keep the same test ids (`header-email`, `header-profile`, `header-logout`, `header-accounts`, `header-storage`).
 */
import { CheckOutlined, DatabaseOutlined, LogoutOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { LANGUAGES, type TLanguage } from '@tessera/contracts';
import { Button, Dropdown, type MenuProps, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ColorSchemeSwitch, colorSchemeMenuItems } from '../components/ColorSchemeSwitch';
import { LANGUAGE_LABELS, LanguageSwitch } from '../components/LanguageSwitch';
import { useColorSchemeChoice } from '../lib/colorScheme';
import { changeLanguage } from '../i18n/language';
import { useSession } from '../lib/useSession';
import { Text } from '../components/Text';

/** The desktop header's controls, side by side. */
export function HeaderLinks() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Space size="large">
      <LanguageSwitch />
      <ColorSchemeSwitch />
      <Text testId="header-email">{session.email}</Text>
      {session.level === 'admin' && (
        <>
          <Link to="/admin/accounts" data-testid="header-accounts">
            <TeamOutlined /> {t('admin.accounts')}
          </Link>
          <Link to="/admin/storage" data-testid="header-storage">
            <DatabaseOutlined /> {t('admin.storageLink')}
          </Link>
        </>
      )}
      <Link to="/profile" data-testid="header-profile">
        <UserOutlined /> {t('common.profile')}
      </Link>
      <Link to="/logout" data-testid="header-logout">
        <LogoutOutlined /> {t('common.logout')}
      </Link>
    </Space>
  );
}

/** The phone header's account menu: e-mail, language, accounts and storage (admins), profile, logout. */
export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const scheme = useColorSchemeChoice();
  const current: TLanguage = i18n.language === 'en' ? 'en' : 'zh-TW';
  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'email',
      label: (
        <Text testId="header-email" ellipsisWidthPx={240}>
          {session.email}
        </Text>
      ),
    },
    { type: 'divider' },
    {
      type: 'group',
      key: 'language',
      label: t('shell.language'),
      children: LANGUAGES.map((l) => ({
        key: `language-${l}`,
        icon: l === current ? <CheckOutlined /> : <span style={{ display: 'inline-block', width: 14 }} />,
        label: <span data-testid={`language-${l}`}>{LANGUAGE_LABELS[l]}</span>,
        onClick: () => void changeLanguage(l),
      })),
    },
    { type: 'divider' },
    { type: 'group', key: 'color-scheme', label: t('shell.colorScheme.label'), children: colorSchemeMenuItems(t, scheme) },
    { type: 'divider' },
    ...(session.level === 'admin'
      ? [
          {
            key: 'accounts',
            icon: <TeamOutlined />,
            label: <span data-testid="header-accounts">{t('admin.accounts')}</span>,
            onClick: () => navigate('/admin/accounts'),
          },
          {
            key: 'storage',
            icon: <DatabaseOutlined />,
            label: <span data-testid="header-storage">{t('admin.storageLink')}</span>,
            onClick: () => navigate('/admin/storage'),
          },
        ]
      : []),
    {
      key: 'profile',
      icon: <UserOutlined />,
      label: <span data-testid="header-profile">{t('common.profile')}</span>,
      onClick: () => navigate('/profile'),
    },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: <span data-testid="header-logout">{t('common.logout')}</span>,
      onClick: () => navigate('/logout'),
    },
  ];
  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <Button type="text" icon={<UserOutlined />} aria-label={t('shell.account')} data-testid="account-menu" />
    </Dropdown>
  );
}

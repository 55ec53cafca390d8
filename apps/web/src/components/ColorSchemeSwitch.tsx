/**
 * The header's appearance switch: follow the system, light or dark (lib/colorScheme), remembered in this browser.
 * On a desktop a small button whose icon shows the choice, opening the three choices; the phone's account menu lists
 * the same choices ({@link colorSchemeMenuItems}).
 */
import { CheckOutlined, DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { COLOR_SCHEME_CHOICES, setColorSchemeChoice, type TColorSchemeChoice, useColorSchemeChoice } from '../lib/colorScheme';

const ICONS: Record<TColorSchemeChoice, typeof SunOutlined> = { system: DesktopOutlined, light: SunOutlined, dark: MoonOutlined };

/** The three choices as menu items (test ids `color-scheme-<choice>`), the current one checked. */
export function colorSchemeMenuItems(t: TFunction, current: TColorSchemeChoice): NonNullable<MenuProps['items']> {
  return COLOR_SCHEME_CHOICES.map((choice) => {
    const Icon = ICONS[choice];
    return {
      key: `color-scheme-${choice}`,
      icon: <Icon />,
      label: <span data-testid={`color-scheme-${choice}`}>{t(`shell.colorScheme.${choice}`)}</span>,
      extra: choice === current ? <CheckOutlined /> : undefined,
      onClick: () => setColorSchemeChoice(choice),
    };
  });
}

/** The desktop switch. */
export function ColorSchemeSwitch() {
  const { t } = useTranslation();
  const choice = useColorSchemeChoice();
  const Icon = ICONS[choice];
  return (
    <Dropdown menu={{ items: colorSchemeMenuItems(t, choice), selectedKeys: [`color-scheme-${choice}`] }} trigger={['click']}>
      <Button
        type="text"
        icon={<Icon />}
        aria-label={`${t('shell.colorScheme.label')}: ${t(`shell.colorScheme.${choice}`)}`}
        data-testid="color-scheme-switch"
        data-choice={choice}
      />
    </Dropdown>
  );
}

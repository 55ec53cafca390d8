/**
 * The editor of one alert subscription: level checkboxes and channel switches, saved with one button. LINE is
 * disabled, with a hint, while the account has no LINE link (it stays switchable off when already on).
 */
import { ALERT_LEVELS, NOTIFY_CHANNELS, type TNotifyChannel, type TSubscriptionSettings } from '@tessera/contracts';
import { Button, Checkbox, Flex, Space, Switch, Tooltip, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sameSettings } from './settings';

/** Props: the settings shown first, whether LINE is linked, and what saving does. */
export interface TSubscriptionFormProps {
  initial: TSubscriptionSettings;
  lineLinked: boolean;
  saving: boolean;
  onSave: (settings: TSubscriptionSettings) => void;
  /** Test-id prefix (`device-subscription`, `project-subscription`). */
  testId: string;
  /** Extra buttons beside "save". */
  extra?: ReactNode;
}

/** The subscription editor. */
export function SubscriptionForm({ initial, lineLinked, saving, onSave, testId, extra }: TSubscriptionFormProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  useEffect(() => setValue(initial), [initial]);
  // No leave prompt here: the card sits on pages that own the one router blocker (useUnsavedChangesPrompt).
  const dirty = !sameSettings(value, initial);

  const setChannel = (channel: TNotifyChannel, on: boolean) =>
    setValue({ ...value, channels: NOTIFY_CHANNELS.filter((c) => (c === channel ? on : value.channels.includes(c))) });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <Typography.Text strong>{t('notifications.subscription.levels')}</Typography.Text>
        <div>
          <Checkbox.Group
            value={value.levels}
            onChange={(levels) => setValue({ ...value, levels: ALERT_LEVELS.filter((l) => levels.includes(l)) })}
            options={ALERT_LEVELS.map((l) => ({
              value: l,
              label: <span data-testid={`${testId}-level-${l}`}>{t(`notifications.levels.${l}`)}</span>,
            }))}
          />
        </div>
      </div>
      <div>
        <Typography.Text strong>{t('notifications.subscription.channels')}</Typography.Text>
        <Flex gap={24} wrap style={{ marginTop: 4 }}>
          {NOTIFY_CHANNELS.map((channel) => {
            const on = value.channels.includes(channel);
            const locked = channel === 'line' && !lineLinked && !on;
            return (
              <Tooltip key={channel} title={locked ? t('notifications.subscription.lineNotLinked') : undefined}>
                <Space size={6}>
                  <Switch
                    size="small"
                    checked={on}
                    disabled={locked}
                    onChange={(next) => setChannel(channel, next)}
                    aria-label={t(`notifications.channels.${channel}`)}
                    data-testid={`${testId}-channel-${channel}`}
                  />
                  <Typography.Text type={locked ? 'secondary' : undefined}>{t(`notifications.channels.${channel}`)}</Typography.Text>
                </Space>
              </Tooltip>
            );
          })}
        </Flex>
        {!lineLinked && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`${testId}-line-hint`}>
            {t('notifications.subscription.lineNotLinked')}
          </Typography.Text>
        )}
      </div>
      <Flex gap={8} wrap>
        <Button type="primary" disabled={!dirty} loading={saving} onClick={() => onSave(value)} data-testid={`${testId}-save`}>
          {t('common.save')}
        </Button>
        {extra}
      </Flex>
    </Space>
  );
}

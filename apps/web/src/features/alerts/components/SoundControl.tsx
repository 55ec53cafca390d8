/**
 * The dashboard's sound control: the spec's "sound playback blocked by browser" message with a button that enables
 * sound (its click is the user gesture the browser waits for), and a mute switch remembered across visits.
 */
import { SoundOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TSoundState } from '../model/alertSound';

/** Props: the sound's state and actions (from useAlertSound). */
export interface TSoundControlProps {
  state: TSoundState;
  onEnable: () => void;
  onMuted: (muted: boolean) => void;
}

/** The mute switch, and the blocked message when playback is blocked. */
export function SoundControl({ state, onEnable, onMuted }: TSoundControlProps) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <SoundOutlined />
        <Switch
          data-testid="alert-sound-switch"
          checked={state !== 'muted'}
          checkedChildren={t('alerts.sound.on')}
          unCheckedChildren={t('alerts.sound.muted')}
          onChange={(on) => onMuted(!on)}
        />
      </Space>
      {state === 'blocked' && (
        <Alert
          type="warning"
          showIcon
          data-testid="alert-sound-blocked"
          message={t('alerts.sound.blocked')}
          description={t('alerts.sound.blockedHint')}
          action={
            <Button size="small" type="primary" data-testid="alert-sound-enable" onClick={onEnable}>
              {t('alerts.sound.enable')}
            </Button>
          }
        />
      )}
    </Space>
  );
}

/**
 * The system tab's "Undeclared telemetry keys" card (docs/decisions/telemetry.md "Undeclared keys"): whether ingest
 * stores a key no sensor of this project declares, typed by its first value, and offers it on the configure tab. Off
 * by default: such keys are refused and counted.
 */
import { UNDECLARED_KEYS_MAX } from '@tessera/contracts';
import { Alert, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveUndeclaredKeySetting, useUndeclaredKeySetting } from './undeclaredKeySettingApi';

/** The card's body; the switch is `data-testid="accepts-undeclared-keys"`. */
export function UndeclaredKeySettingCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const setting = useUndeclaredKeySetting(projectId);
  const save = useSaveUndeclaredKeySetting(projectId);
  if (setting.isError) return <Alert type="error" showIcon message={t('projectSettings.undeclaredKeys.loadFailed')} />;
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }}>
      <Space size={8}>
        <Switch
          checked={setting.data?.accepts_undeclared_keys ?? false}
          loading={setting.isPending || save.isPending}
          onChange={(on) => save.mutate({ accepts_undeclared_keys: on })}
          aria-label={t('projectSettings.undeclaredKeys.accepts')}
          data-testid="accepts-undeclared-keys"
        />
        <Typography.Text>{t('projectSettings.undeclaredKeys.accepts')}</Typography.Text>
      </Space>
      <Typography.Text type="secondary">{t('projectSettings.undeclaredKeys.explain', { limit: UNDECLARED_KEYS_MAX })}</Typography.Text>
      {save.isError && <Alert type="error" showIcon message={t('projectSettings.undeclaredKeys.saveFailed')} />}
    </Space>
  );
}

/**
 * The project's device authorisation method (spec §3 `device_authz_method`: all, ble, qrcode) shown and changed on
 * the devices tab through the project update (PUT projects/{id}), the same call as the system tab's form.
 */
import { DEVICE_AUTHZ_METHODS, type TProject } from '@tessera/contracts';
import { App, Flex, Select, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUpdateProject } from '../project-settings/api';

/** A labelled select that saves on change. */
export function DeviceAuthzMethodSelect({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const update = useUpdateProject(project.id);
  const change = (method: TProject['device_authz_method']) =>
    update.mutate(
      { device_authz_method: method },
      {
        onSuccess: () => void message.success(t('projects.devices.authzSaved')),
        onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
      },
    );
  return (
    <Flex gap={8} align="center">
      <Tooltip title={t('projects.devices.authzHint')}>
        <Typography.Text>{t('projects.authz')}</Typography.Text>
      </Tooltip>
      <Select
        style={{ minWidth: 140 }}
        aria-label={t('projects.authz')}
        value={update.isPending ? update.variables?.device_authz_method : project.device_authz_method}
        loading={update.isPending}
        onChange={change}
        options={DEVICE_AUTHZ_METHODS.map((m) => ({ value: m, label: t(`projects.authzMethods.${m}`) }))}
        data-testid="devices-authz-method"
      />
    </Flex>
  );
}

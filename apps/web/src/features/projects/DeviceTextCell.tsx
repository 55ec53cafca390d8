/**
 * Inline edit of a device's name or nickname on the devices tab (PUT devices/{tangramId}), checked with the
 * contracts' ZDeviceUpdate (name 1–32, nickname ≤ 20; docs/decisions/console.md). A refusal by the server opens the
 * spec's "device update failure" dialog (§8: error title and the server message; the shared lib/useErrorDialog).
 */
import { CheckOutlined, CloseOutlined, EditOutlined } from '@ant-design/icons';
import { type TDevice, ZDeviceUpdate } from '@tessera/contracts';
import { Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorDialog } from '../../lib/useErrorDialog';
import { fieldError } from '../../lib/zodRules';
import { useUpdateDevice } from './api';

type TField = 'name' | 'nickname';

interface TProps {
  device: TDevice;
  field: TField;
  projectId: number;
}

/** The cell: the value with an edit button, or an input (Enter saves, Escape cancels). */
export function DeviceTextCell({ device, field, projectId }: TProps) {
  const { t } = useTranslation();
  const showError = useErrorDialog();
  const update = useUpdateDevice(projectId);
  const [draft, setDraft] = useState<string | null>(null);
  const testId = `device-${field}-${device.id}`;
  const error = draft === null ? null : fieldError(ZDeviceUpdate, field, { [field]: draft }, t);

  const save = () => {
    if (draft === null || error) return;
    if (draft.trim() === device[field]) return setDraft(null);
    update.mutate(
      { tangramId: device.tangram_id, body: { [field]: draft } },
      {
        onSuccess: () => setDraft(null),
        onError: (e) => showError(t('projects.devices.updateFailed'), e),
      },
    );
  };

  if (draft === null) {
    return (
      <Flex gap={4} align="center">
        <span data-testid={testId}>{device[field] || <Typography.Text type="secondary">—</Typography.Text>}</span>
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={t(`projects.devices.edit.${field}`)}
          onClick={() => setDraft(device[field])}
          data-testid={`${testId}-edit`}
        />
      </Flex>
    );
  }
  return (
    <Flex vertical gap={2}>
      <Flex gap={4}>
        <Input
          size="small"
          autoFocus
          value={draft}
          status={error ? 'error' : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={save}
          onKeyDown={(e) => e.key === 'Escape' && setDraft(null)}
          disabled={update.isPending}
          data-testid={`${testId}-input`}
        />
        <Button
          size="small"
          type="primary"
          icon={<CheckOutlined />}
          aria-label={t('common.save')}
          onClick={save}
          disabled={!!error}
          loading={update.isPending}
          data-testid={`${testId}-save`}
        />
        <Button size="small" icon={<CloseOutlined />} aria-label={t('common.cancel')} onClick={() => setDraft(null)} />
      </Flex>
      {error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`${testId}-error`}>
          {error}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * A device command the assistant proposed (docs/decisions/ai.md "Assistant: confirm before act"): a button that
 * asks the person to confirm, then calls the device detail's remote-control route itself, with the person's own
 * token and permissions. The assistant never sends a command.
 */
import { ThunderboltOutlined } from '@ant-design/icons';
import type { TAssistantAction } from '@tessera/contracts';
import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http';
import { useGetDeviceInfo, useSensorCommand } from '../../devices/controlApi';

/** The proposed `action` as a confirm-then-send button. */
export function ActionButton({ action, testId }: { action: TAssistantAction; testId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const info = useGetDeviceInfo(action.tangram_id);
  const sensor = useSensorCommand(action.tangram_id);
  const label =
    action.command === 'getDeviceInfo'
      ? t('assistant.action.getDeviceInfo', { device: action.device_name || action.tangram_id })
      : t('assistant.action.sensorCommand', {
          device: action.device_name || action.tangram_id,
          key: action.params?.key,
          action: action.params?.action,
        });
  const send = async () => {
    try {
      if (action.command === 'getDeviceInfo') await info.mutateAsync();
      else await sensor.mutateAsync({ key: action.params?.key ?? '', action: action.params?.action });
      message.success(t('assistant.action.sent'));
    } catch (e) {
      message.error(t('assistant.action.failed', { message: e instanceof HttpError ? e.message : String(e) }));
    }
  };
  return (
    <Popconfirm
      title={t('assistant.action.confirm')}
      description={label}
      onConfirm={send}
      okText={t('assistant.action.send')}
      okButtonProps={{ 'data-testid': `${testId}-confirm` }}
    >
      <Button size="small" icon={<ThunderboltOutlined />} loading={info.isPending || sensor.isPending} data-testid={testId}>
        {label}
      </Button>
    </Popconfirm>
  );
}

/** A failed command explained (offline, timeout, the device's own error) — `data-testid="command-error"`. */
import { ErrorCode } from '@tessera/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http';
import { commandErrorKey } from '../model/control';

/** The alert for `error`, or nothing. The device's own error text is shown under a device error. */
export function CommandError({ error, timeoutHint }: { error: unknown; timeoutHint?: boolean }) {
  const { t } = useTranslation();
  if (!error) return null;
  const code = error instanceof HttpError ? error.code : '';
  const detail = code === ErrorCode.DeviceError || code === ErrorCode.Validation ? (error as HttpError).message : undefined;
  return (
    <Alert
      type={code === ErrorCode.DeviceOffline ? 'warning' : 'error'}
      showIcon
      data-testid="command-error"
      data-code={code}
      message={t(commandErrorKey(error))}
      description={detail ?? (timeoutHint && code === ErrorCode.DeviceTimeout ? t('deviceControl.remote.errors.timeoutHint') : undefined)}
    />
  );
}

/**
 * Acknowledge and resolve buttons of one alert (acknowledge while open; resolve while not resolved, after a
 * confirmation). A 409 (someone else was faster) or 404 is explained and the lists refresh.
 */
import { AlertErrorCode, type TAlert } from '@tessera/contracts';
import { App, Button, type ButtonProps, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http';
import { useAlertAction } from '../api';

const CONFLICT_CODES: readonly string[] = Object.values(AlertErrorCode);

/** The two action buttons; `size` small in tables. */
export function AlertActions({ alert, size = 'small' }: { alert: TAlert; size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const action = useAlertAction();
  const run = (kind: 'acknowledge' | 'resolve') =>
    action.mutate(
      { id: alert.id, action: kind },
      {
        onSuccess: () => void message.success(t(kind === 'acknowledge' ? 'alerts.action.acknowledged' : 'alerts.action.resolved')),
        onError: (err) => {
          if (err instanceof HttpError && CONFLICT_CODES.includes(err.code)) void message.warning(t(`alerts.action.conflict.${err.code}`));
          else if (err instanceof HttpError && err.status === 404) void message.warning(t('alerts.action.notFound'));
        },
      },
    );
  if (alert.state === 'resolved') return null;
  return (
    <Space size="small" onClick={(e) => e.stopPropagation()}>
      {alert.state === 'open' && (
        <Button size={size} data-testid={`alert-ack-${alert.id}`} loading={action.isPending} onClick={() => run('acknowledge')}>
          {t('alerts.action.acknowledge')}
        </Button>
      )}
      <Popconfirm
        title={t('alerts.action.resolveConfirm')}
        description={t('alerts.action.resolveConfirmHint')}
        okText={t('alerts.action.resolve')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': `alert-resolve-confirm-${alert.id}` } as ButtonProps}
        onConfirm={() => run('resolve')}
      >
        <Button size={size} danger data-testid={`alert-resolve-${alert.id}`} loading={action.isPending}>
          {t('alerts.action.resolve')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

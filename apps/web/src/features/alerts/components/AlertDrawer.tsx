/**
 * The alert detail drawer (dashboard and history): every field of the alert, its actions, and its notification
 * deliveries (email, LINE) from the notifications feature.
 */
import type { TAlert } from '@tessera/contracts';
import { Descriptions, Drawer, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlertDeliveries } from '../../notifications/AlertDeliveries';
import { formatTime } from '../model/format';
import { AlertActions } from './AlertActions';
import { LevelTag, StateTag } from './AlertTags';

/** Props: the alert shown (null: closed) and how to close. */
export interface TAlertDrawerProps {
  alert: TAlert | null;
  onClose: () => void;
}

/** The drawer. */
export function AlertDrawer({ alert, onClose }: TAlertDrawerProps) {
  const { t } = useTranslation();
  const by = (at: number | null, who: string | null) =>
    at === null ? '—' : who ? t('alerts.by', { time: formatTime(at), who }) : formatTime(at);
  return (
    <Drawer
      open={alert !== null}
      onClose={onClose}
      width={560}
      title={alert ? t('alerts.drawer.title', { id: alert.id }) : ''}
      extra={alert && <AlertActions alert={alert} size="middle" />}
      data-testid="alert-drawer"
      destroyOnHidden
    >
      {alert && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered data-testid="alert-drawer-fields">
            <Descriptions.Item label={t('alerts.field.level')}>
              <LevelTag level={alert.level} />
            </Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.state')}>
              <StateTag state={alert.state} testId="alert-drawer-state" />
            </Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.message')}>{alert.message}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.device')}>
              {alert.device.name} <Typography.Text type="secondary">{alert.device.tangram_id}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.project')}>{alert.project.name}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.product')}>{alert.product.name}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.rule')}>
              {alert.rule.name} <Typography.Text type="secondary">({t(`alerts.ruleKind.${alert.rule.kind}`)})</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.trigger')}>
              {alert.trigger ? `${alert.trigger.key} = ${alert.trigger.value}` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.firstSeen')}>{formatTime(alert.first_seen_at)}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.lastSeen')}>{formatTime(alert.last_seen_at)}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.count')}>{alert.count}</Descriptions.Item>
            {alert.flapping && <Descriptions.Item label={t('alerts.field.flapping')}>{t('alerts.flappingNote')}</Descriptions.Item>}
            <Descriptions.Item label={t('alerts.field.acknowledged')}>{by(alert.acknowledged_at, alert.acknowledged_by)}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.resolved')}>{by(alert.resolved_at, alert.resolved_by)}</Descriptions.Item>
            <Descriptions.Item label={t('alerts.field.resolvedReason')}>
              {alert.resolved_reason ? t(`alerts.resolvedReason.${alert.resolved_reason}`) : '—'}
            </Descriptions.Item>
          </Descriptions>
          <div>
            <Typography.Title level={5}>{t('alerts.drawer.deliveries')}</Typography.Title>
            <AlertDeliveries alertId={alert.id} />
          </div>
        </Space>
      )}
    </Drawer>
  );
}

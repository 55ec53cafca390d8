/** The audit log table's columns: time, who (and the admin acting), address, entity, action, how many fields changed. */
import type { TAuditEntry } from '@tessera/contracts';
import { Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';

/** The label of a known entity type or action (`auditLog.entity.*`, `auditLog.action.*`), else the raw name. */
export function auditLabel(t: TFunction, group: 'entity' | 'action', name: string): string {
  return t(`auditLog.${group}.${name}`, { defaultValue: name });
}

/** The columns, labelled in the console language. */
export function auditColumns(t: TFunction, showTenant: boolean): TableColumnsType<TAuditEntry> {
  const columns: TableColumnsType<TAuditEntry> = [
    { title: t('auditLog.time'), key: 'at', width: 180, render: (_, e) => dayjs(e.at).format('YYYY-MM-DD HH:mm:ss') },
    {
      title: t('auditLog.actor'),
      key: 'actor',
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`audit-actor-${e.id}`}>{e.actor.email ?? '—'}</span>
          {e.actor.via === 'api_key' && <Tag>{t('auditLog.viaApiKey')}</Tag>}
          {e.acting_admin && (
            <Typography.Text type="warning" data-testid={`audit-acting-${e.id}`}>
              {t('auditLog.actingAdmin', { email: e.acting_admin.email ?? e.acting_admin.account_id })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('auditLog.ip'), dataIndex: 'ip', width: 140, render: (ip: string | null) => ip ?? '—' },
    {
      title: t('auditLog.entityColumn'),
      key: 'entity',
      render: (_, e) => (
        <span data-testid={`audit-entity-${e.id}`}>
          {auditLabel(t, 'entity', e.entity_type)}
          {e.entity_id ? ` #${e.entity_id}` : ''}
        </span>
      ),
    },
    {
      title: t('auditLog.actionColumn'),
      key: 'action',
      width: 140,
      render: (_, e) => (
        <Tag
          color={e.action === 'login_failed' ? 'red' : e.action === 'delete' ? 'volcano' : undefined}
          data-testid={`audit-action-${e.id}`}
        >
          {auditLabel(t, 'action', e.action)}
        </Tag>
      ),
    },
    {
      title: t('auditLog.changed'),
      key: 'changed',
      width: 110,
      render: (_, e) => t('auditLog.fields', { count: Object.keys(e.changes).length }),
    },
  ];
  if (showTenant)
    columns.splice(1, 0, { title: t('auditLog.tenant'), dataIndex: 'tenant_id', width: 90, render: (id: number | null) => id ?? '—' });
  return columns;
}

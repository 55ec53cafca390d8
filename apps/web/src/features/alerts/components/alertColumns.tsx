/** The alert table's columns, shared by the dashboard and the history (newest first; the server sorts). */
import type { TAlert } from '@tessera/contracts';
import { Space, type TableColumnsType, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatTime } from '../model/format';
import { AlertActions } from './AlertActions';
import { LevelTag, StateTag } from './AlertTags';

/** Columns: level, state, message, device, project, first/last seen, count, actions. */
export function alertColumns(t: TFunction): TableColumnsType<TAlert> {
  return [
    { title: t('alerts.field.level'), dataIndex: 'level', width: 110, render: (_, a) => <LevelTag level={a.level} /> },
    {
      title: t('alerts.field.state'),
      dataIndex: 'state',
      width: 100,
      render: (_, a) => <StateTag state={a.state} testId={`alert-state-${a.id}`} />,
    },
    { title: t('alerts.field.message'), dataIndex: 'message', ellipsis: true, width: 220 },
    {
      title: t('alerts.field.device'),
      key: 'device',
      width: 280,
      render: (_, a) => (
        <Space direction="vertical" size={0}>
          <span>{a.device.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            {a.device.tangram_id}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('alerts.field.project'), key: 'project', width: 140, ellipsis: true, render: (_, a) => a.project.name },
    { title: t('alerts.field.firstSeen'), dataIndex: 'first_seen_at', width: 170, render: (v: number) => formatTime(v) },
    { title: t('alerts.field.lastSeen'), dataIndex: 'last_seen_at', width: 170, render: (v: number) => formatTime(v) },
    { title: t('alerts.field.count'), dataIndex: 'count', width: 80, align: 'right' },
    { title: t('common.actions'), key: 'actions', width: 170, render: (_, a) => <AlertActions alert={a} /> },
  ];
}

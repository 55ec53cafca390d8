/** The alert table's columns, shared by the dashboard and the history (newest first; the server sorts). */
import type { TAlert } from '@tessera/contracts';
import { Space, type TableColumnsType, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatTime } from '../model/format';
import { AlertActions } from './AlertActions';
import { LevelTag, StateTag } from './AlertTags';

/**
 * Width of the columns together, in px: the table fits a 1440 px window beside the side menu (content ~1120 px)
 * without scrolling, so the last columns ("最近發生", actions) are never cut off; narrower, it scrolls in its card.
 */
export const ALERT_TABLE_WIDTH_PX = 1110;

/** A time on two lines (date, then time of day), so a time column needs ~100 px instead of ~170. */
function TwoLineTime({ ts }: { ts: number | null }) {
  const [date, time] = formatTime(ts).split(' ');
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {date}
      {time && <br />}
      {time}
    </span>
  );
}

/** Columns: level, state, message, device, project, first/last seen, count, actions. */
export function alertColumns(t: TFunction): TableColumnsType<TAlert> {
  return [
    { title: t('alerts.field.level'), dataIndex: 'level', width: 84, render: (_, a) => <LevelTag level={a.level} /> },
    {
      title: t('alerts.field.state'),
      dataIndex: 'state',
      width: 90,
      render: (_, a) => <StateTag state={a.state} testId={`alert-state-${a.id}`} />,
    },
    { title: t('alerts.field.message'), dataIndex: 'message', ellipsis: true },
    {
      title: t('alerts.field.device'),
      key: 'device',
      width: 220,
      render: (_, a) => (
        <Space direction="vertical" size={0}>
          <span>{a.device.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
            {a.device.tangram_id}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('alerts.field.project'), key: 'project', width: 120, ellipsis: true, render: (_, a) => a.project.name },
    { title: t('alerts.field.firstSeen'), dataIndex: 'first_seen_at', width: 108, render: (v: number) => <TwoLineTime ts={v} /> },
    { title: t('alerts.field.lastSeen'), dataIndex: 'last_seen_at', width: 108, render: (v: number) => <TwoLineTime ts={v} /> },
    { title: t('alerts.field.count'), dataIndex: 'count', width: 64, align: 'right' },
    { title: t('common.actions'), key: 'actions', width: 150, render: (_, a) => <AlertActions alert={a} /> },
  ];
}

/**
 * Device list (spec §2 `device/list`): a paged table of the devices the caller may see, searchable (`q`) and
 * filtered by project; a list page (components/ListPage) whose search, project, page and page size live in the URL
 * (`?q=&project_id=&page=&limit=`) so a link or reload keeps them. A row opens the device.
 */
import type { TDevice } from '@tessera/contracts';
import { Select, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '../../../components/ListPage';
import { numberParam, useUrlListQuery } from '../../../components/useUrlListQuery';
import { getSession } from '../../../lib/session';
import { useDevices, useProjectOptions } from '../api';
import { OnlineBadge } from '../components/OnlineBadge';
import { formatLocalTime } from '../model/format';

/** The device list page. */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useUrlListQuery();
  const projectId = numberParam(list.params.get('project_id')) || undefined;
  const devices = useDevices({ ...list.query, project_id: projectId });
  const projects = useProjectOptions(getSession().level !== 'user');

  const columns: TableColumnsType<TDevice> = [
    { title: t('devices.field.tangramId'), dataIndex: 'tangram_id', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('devices.field.name'), dataIndex: 'name' },
    { title: t('devices.field.nickname'), dataIndex: 'nickname', render: (v: string) => v || '—' },
    { title: t('devices.field.project'), dataIndex: 'project_name' },
    {
      title: t('devices.field.online'),
      dataIndex: 'online',
      render: (v: boolean, d) => <OnlineBadge online={v} testId={`device-online-${d.tangram_id}`} />,
    },
    { title: t('devices.field.lastSeen'), dataIndex: 'last_seen_at', render: (v: number | null) => formatLocalTime(v) },
  ];

  return (
    <ListPage<TDevice>
      title={t('devices.list.title')}
      list={list}
      result={devices}
      searchPlaceholder={t('devices.list.searchPlaceholder')}
      searchTestId="device-search"
      filters={
        <Select
          data-testid="device-project-filter"
          allowClear
          placeholder={t('devices.list.allProjects')}
          aria-label={t('devices.list.allProjects')}
          value={projectId}
          loading={projects.isLoading}
          options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          onChange={(value?: number) => list.update({ project_id: value })}
          style={{ width: 220 }}
        />
      }
      rowPrefix="device"
      rowKey="tangram_id"
      tableTestId="device-table"
      columns={columns}
      onOpen={(d) => navigate(`/device/detail/${d.tangram_id}`)}
      pageSizeChanger
      totalText={(total) => t('devices.list.total', { total })}
      empty={{ text: t('devices.list.empty'), noMatch: t('devices.list.noMatch'), filtered: projectId !== undefined }}
    />
  );
}

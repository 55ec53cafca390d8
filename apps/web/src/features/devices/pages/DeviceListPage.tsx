/**
 * Device list (spec §2 `device/list`): a paged table of the devices the caller may see, searchable (`q`) and
 * filtered by project; the filters live in the URL (`?q=&project_id=&page=`) so a link or reload keeps them.
 */
import { DEFAULT_PAGE_LIMIT, type TDevice } from '@tessera/contracts';
import { Empty, Input, Select, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { getSession } from '../../../lib/session';
import { useDevices, useProjectOptions } from '../api';
import { OnlineBadge } from '../components/OnlineBadge';
import { formatLocalTime } from '../model/format';
import { openableRow } from '../../../components/openableRow';

/** The device list page. */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const projectId = Number(params.get('project_id')) || undefined;
  const page = Number(params.get('page')) || 1;
  const limit = Number(params.get('limit')) || DEFAULT_PAGE_LIMIT;
  const devices = useDevices({ q: q || undefined, project_id: projectId, page, limit });
  const projects = useProjectOptions(getSession().level !== 'user');

  const update = (next: Record<string, string | number | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === undefined || v === '') merged.delete(k);
      else merged.set(k, String(v));
    }
    setParams(merged);
  };

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
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('devices.list.title')}</Typography.Title>
      <Space wrap>
        <Input.Search
          data-testid="device-search"
          allowClear
          defaultValue={q}
          placeholder={t('devices.list.searchPlaceholder')}
          onSearch={(value) => update({ q: value.trim(), page: undefined })}
          style={{ width: 300 }}
        />
        <Select
          data-testid="device-project-filter"
          allowClear
          placeholder={t('devices.list.allProjects')}
          aria-label={t('devices.list.allProjects')}
          value={projectId}
          loading={projects.isLoading}
          options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          onChange={(value?: number) => update({ project_id: value, page: undefined })}
          style={{ width: 220 }}
        />
      </Space>
      <Table<TDevice>
        data-testid="device-table"
        rowKey="tangram_id"
        columns={columns}
        dataSource={devices.data?.data ?? []}
        loading={devices.isFetching}
        locale={{ emptyText: <Empty description={t('devices.list.empty')} /> }}
        onRow={(d) => openableRow(`device-row-${d.tangram_id}`, () => navigate(`/device/detail/${d.tangram_id}`))}
        pagination={{
          current: page,
          pageSize: limit,
          total: devices.data?.total_items ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('devices.list.total', { total }),
          onChange: (p, size) => update({ page: p, limit: size === DEFAULT_PAGE_LIMIT ? undefined : size }),
        }}
      />
    </Space>
  );
}

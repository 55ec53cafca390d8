/**
 * /project/detail/{id}/devices: the project's devices (paged, searchable) with inline name and nickname edits, the
 * project's device authorisation method, "register device" and bulk registration (docs/decisions/devices-bulk.md).
 */
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { TDevice, TDeviceRegistered } from '@tessera/contracts';
import { Badge, Button, Empty, Flex, Input, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { rowTestId } from '../../components/rowTestId';
import { useListQuery } from '../../components/usePagedQuery';
import { useProject, useProjectDevices } from './api';
import { BulkRegisterModal } from './bulk/BulkRegisterModal';
import { BulkSecretsModal } from './bulk/BulkSecretsModal';
import { DeviceAuthzMethodSelect } from './DeviceAuthzMethodSelect';
import { DeviceTextCell } from './DeviceTextCell';
import { RegisterDeviceModal } from './RegisterDeviceModal';
import { SecretOnceModal } from './SecretOnceModal';

/** The devices tab. */
export default function ProjectDevicesTab() {
  const { t } = useTranslation();
  const projectId = Number(useParams().id);
  const { query, search, paginate } = useListQuery();
  const project = useProject(projectId).data;
  const devices = useProjectDevices(projectId, query);
  const [registering, setRegistering] = useState(false);
  const [registered, setRegistered] = useState<TDeviceRegistered | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [bulkRegistered, setBulkRegistered] = useState<TDeviceRegistered[] | null>(null);
  return (
    <>
      <Flex justify="space-between" wrap gap={12} style={{ marginBottom: 16 }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('projects.devices.searchPlaceholder')}
            onSearch={search}
            style={{ maxWidth: 320 }}
            data-testid="project-device-search"
          />
          {project && <DeviceAuthzMethodSelect project={project} />}
        </Space>
        <Space wrap>
          <Button icon={<UploadOutlined />} onClick={() => setBulkOpen(true)} data-testid="device-bulk-register">
            {t('projects.bulk.open')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setRegistering(true)} data-testid="device-register">
            {t('projects.devices.register')}
          </Button>
        </Space>
      </Flex>
      <Table<TDevice>
        rowKey="id"
        loading={devices.isFetching}
        dataSource={devices.data?.data ?? []}
        onRow={rowTestId('project-device')}
        locale={{ emptyText: <Empty description={t('projects.devices.empty')} /> }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: devices.data?.total_items ?? 0,
          showTotal: (total) => t('common.total', { total }),
          onChange: paginate,
        }}
        columns={[
          {
            title: t('projects.devices.tangramId'),
            dataIndex: 'tangram_id',
            render: (id: string) => <Link to={`/device/detail/${id}`}>{id}</Link>,
          },
          {
            title: t('common.name'),
            dataIndex: 'name',
            render: (_, d) => <DeviceTextCell device={d} field="name" projectId={projectId} />,
          },
          {
            title: t('projects.devices.nickname'),
            dataIndex: 'nickname',
            render: (_, d) => <DeviceTextCell device={d} field="nickname" projectId={projectId} />,
          },
          { title: t('projects.devices.serial'), dataIndex: 'sno' },
          {
            title: t('projects.devices.status'),
            dataIndex: 'online',
            render: (on: boolean) => (
              <Badge status={on ? 'success' : 'default'} text={t(on ? 'projects.devices.online' : 'projects.devices.offline')} />
            ),
          },
          {
            title: t('projects.devices.lastSeen'),
            dataIndex: 'last_seen_at',
            render: (ms: number | null) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '—'),
          },
        ]}
      />
      <RegisterDeviceModal projectId={projectId} open={registering} onClose={() => setRegistering(false)} onRegistered={setRegistered} />
      <SecretOnceModal device={registered} onClose={() => setRegistered(null)} />
      <BulkRegisterModal
        projectId={projectId}
        open={bulkOpen}
        onClose={() => setBulkOpen(false)}
        onRegistered={(list) => {
          setBulkOpen(false);
          setBulkRegistered(list);
        }}
      />
      <BulkSecretsModal projectId={projectId} devices={bulkRegistered} onClose={() => setBulkRegistered(null)} />
    </>
  );
}

/** /project/list (spec §2, vendor only): paged, searchable project table with an empty state. */
import { PlusOutlined } from '@ant-design/icons';
import type { TProject } from '@tessera/contracts';
import { Button, Card, Empty, Flex, Input, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { rowTestId } from '../../components/rowTestId';
import { useListQuery } from '../../components/usePagedQuery';
import { useProjects } from './api';

/** The project list. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { query, search, paginate } = useListQuery();
  const projects = useProjects(query);
  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/project/new')} data-testid="project-create">
      {t('projects.create')}
    </Button>
  );
  return (
    <Card title={t('projects.title')} extra={createButton}>
      <Flex style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('projects.searchPlaceholder')}
          onSearch={search}
          style={{ maxWidth: 320 }}
          data-testid="project-search"
        />
      </Flex>
      <Table<TProject>
        rowKey="id"
        loading={projects.isFetching}
        dataSource={projects.data?.data ?? []}
        onRow={rowTestId('project')}
        locale={{
          emptyText: <Empty description={query.q ? t('projects.noMatch') : t('projects.empty')}>{!query.q && createButton}</Empty>,
        }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: projects.data?.total_items ?? 0,
          showTotal: (total) => t('common.total', { total }),
          onChange: paginate,
        }}
        columns={[
          {
            title: t('common.name'),
            dataIndex: 'name',
            render: (name: string, p) => (
              <Link to={`/project/detail/${p.id}`} data-testid={`project-link-${p.id}`}>
                {name}
              </Link>
            ),
          },
          { title: t('projects.product'), dataIndex: 'product_name' },
          { title: t('projects.module'), render: (_, p) => p.tangram.product },
          { title: t('projects.authz'), dataIndex: 'device_authz_method', render: (m: string) => t(`projects.authzMethods.${m}`) },
          { title: t('projects.deviceCount'), dataIndex: 'device_count' },
          { title: t('common.createdAt'), dataIndex: 'created_at', render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm') },
        ]}
      />
    </Card>
  );
}

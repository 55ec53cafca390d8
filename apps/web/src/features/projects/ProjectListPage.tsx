/** /project/list (spec §2, vendor only): paged, searchable project table with an empty state. */
import { PlusOutlined } from '@ant-design/icons';
import type { TProject } from '@tessera/contracts';
import { Button } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '../../components/ListPage';
import { useListQuery } from '../../components/usePagedQuery';
import { useProjects } from './api';

/** The project list. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListQuery();
  const projects = useProjects(list.query);
  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/project/new')} data-testid="project-create">
      {t('projects.create')}
    </Button>
  );
  return (
    <ListPage<TProject>
      title={t('projects.title')}
      extra={createButton}
      list={list}
      result={projects}
      searchPlaceholder={t('projects.searchPlaceholder')}
      searchTestId="project-search"
      rowPrefix="project"
      empty={{ text: t('projects.empty'), noMatch: t('projects.noMatch'), action: createButton }}
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
  );
}

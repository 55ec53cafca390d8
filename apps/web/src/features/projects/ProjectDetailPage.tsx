/**
 * /project/detail/{id} (spec §2): the project's summary and its tabs. The tabs (and their calls) open only once the
 * project has loaded; a project the account may not see is the shared not-found / forbidden state, with no tab or
 * button (components/PageState).
 */
import { Card, Descriptions, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { NotFound, PageError } from '../../components/PageState';
import { useProject } from './api';

const TABS = ['devices', 'configure', 'rule', 'system', 'custom-page', 'notification', 'roles'] as const;

/** The project detail frame. */
export default function ProjectDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const project = useProject(id);
  const active = TABS.find((tab) => pathname.endsWith(`/${tab}`)) ?? 'devices';
  const p = project.data;
  if (!(id > 0)) return <NotFound back="/project/list" />;
  if (project.isError) return <PageError error={project.error} back="/project/list" />;
  return (
    <Card title={p?.name ?? t('projects.detail')} loading={!p}>
      {p && (
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 8 }}>
          <Descriptions.Item label={t('projects.product')}>{p.product_name}</Descriptions.Item>
          <Descriptions.Item label={t('projects.module')}>{p.tangram.product}</Descriptions.Item>
          <Descriptions.Item label={t('projects.authz')}>{t(`projects.authzMethods.${p.device_authz_method}`)}</Descriptions.Item>
          <Descriptions.Item label={t('common.description')}>{p.description || '—'}</Descriptions.Item>
        </Descriptions>
      )}
      {p && (
        <>
          <Tabs
            activeKey={active}
            onChange={(k) => navigate(k)}
            items={TABS.map((k) => ({ key: k, label: <span data-testid={`project-tab-${k}`}>{t(`projects.tabs.${k}`)}</span> }))}
          />
          <Outlet />
        </>
      )}
    </Card>
  );
}

/**
 * /project/detail/{id} (spec §2): the project's summary and its tabs. Only the devices tab exists in this release
 * (the other tabs come with their features; no placeholders).
 */
import { Card, Descriptions, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
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
  return (
    <Card title={p?.name ?? t('projects.detail')} loading={project.isLoading}>
      {project.isError && t('errors.loadFailed')}
      {p && (
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 8 }}>
          <Descriptions.Item label={t('projects.product')}>{p.product_name}</Descriptions.Item>
          <Descriptions.Item label={t('projects.module')}>{p.tangram.product}</Descriptions.Item>
          <Descriptions.Item label={t('projects.authz')}>{t(`projects.authzMethods.${p.device_authz_method}`)}</Descriptions.Item>
          <Descriptions.Item label={t('common.description')}>{p.description || '—'}</Descriptions.Item>
        </Descriptions>
      )}
      <Tabs
        activeKey={active}
        onChange={(k) => navigate(k)}
        items={TABS.map((k) => ({ key: k, label: <span data-testid={`project-tab-${k}`}>{t(`projects.tabs.${k}`)}</span> }))}
      />
      <Outlet />
    </Card>
  );
}

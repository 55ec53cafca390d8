/**
 * /line-notify/group/{id} (spec §2): a push group's members (reachable or not), the company's linked accounts, which
 * projects' alerts at which levels it receives, edit, and a test push with each member's outcome.
 */
import { ArrowLeftOutlined, CheckCircleTwoTone, WarningTwoTone } from '@ant-design/icons';
import type { TLineGroupMember, TLineLinkedUser } from '@tessera/contracts';
import { Button, Card, Descriptions, Empty, List, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageError } from '../../../components/PageState';
import { useGroup, useLinkedUsers } from '../api';
import { GroupFormModal } from '../components/GroupFormModal';
import { LevelTags } from '../components/LevelTags';
import { TestPushCard } from '../components/TestPushCard';

/** The group detail page. */
export default function GroupDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const group = useGroup(id);
  const users = useLinkedUsers();
  const [editing, setEditing] = useState(false);
  const g = group.data;
  if (group.isError) return <PageError error={group.error} back="/line-notify/group" />;
  const memberIds = new Set(g?.members.filter((m) => m.kind === 'account').map((m) => m.id));
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Link to="/line-notify/group">
        <ArrowLeftOutlined /> {t('line.detail.back')}
      </Link>
      <Card
        loading={group.isLoading}
        title={<span data-testid="line-group-title">{g?.name}</span>}
        extra={
          <Button onClick={() => setEditing(true)} data-testid="line-group-edit">
            {t('line.groups.edit')}
          </Button>
        }
      >
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('line.detail.projects')}>
            <span data-testid="line-group-projects-text">{g?.projects.map((p) => p.name).join('、') || t('line.detail.noProjects')}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('line.groups.levels')}>{g && <LevelTags levels={g.levels} />}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title={t('line.detail.members')}>
        <List<TLineGroupMember>
          dataSource={g?.members ?? []}
          locale={{ emptyText: <Empty description={t('line.detail.noMembers')} /> }}
          renderItem={(m) => (
            <List.Item data-testid={`line-member-${m.label}`}>
              <Space>
                <Tag>{t(m.kind === 'account' ? 'line.detail.account' : 'line.detail.chat')}</Tag>
                {m.label}
                <Tooltip title={t(m.deliverable ? 'line.detail.deliverable' : 'line.detail.notDeliverable')}>
                  {m.deliverable ? <CheckCircleTwoTone twoToneColor="#52c41a" /> : <WarningTwoTone twoToneColor="#faad14" />}
                </Tooltip>
              </Space>
            </List.Item>
          )}
        />
      </Card>
      {g && <TestPushCard groupId={g.id} disabled={!g.members.some((m) => m.deliverable)} />}
      <Card size="small" title={t('line.detail.linkedAccounts')}>
        <Table<TLineLinkedUser>
          rowKey="account_id"
          size="small"
          pagination={false}
          loading={users.isLoading}
          dataSource={users.data?.data ?? []}
          locale={{ emptyText: <Empty description={t('line.groups.noLinked')} /> }}
          columns={[
            { title: t('common.email'), dataIndex: 'email' },
            { title: t('line.detail.lineName'), dataIndex: 'line_name', render: (v: string | null) => v ?? '—' },
            {
              title: t('line.detail.status'),
              key: 'state',
              render: (_, u) => (
                <Space>
                  <Tag color={u.following ? 'green' : 'red'}>{t(u.following ? 'line.detail.following' : 'line.detail.blocked')}</Tag>
                  {memberIds.has(u.account_id) && <Tag color="blue">{t('line.detail.inGroup')}</Tag>}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <GroupFormModal group={editing && g ? g : undefined} onClose={() => setEditing(false)} />
    </Space>
  );
}

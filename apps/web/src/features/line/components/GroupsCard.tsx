/** The push groups of the tenant (vendor): a table with add, edit, details and delete (confirmed first). */
import { PlusOutlined } from '@ant-design/icons';
import { LINE_GROUPS_MAX, type TLineGroup } from '@tessera/contracts';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDeleteGroup, useGroups } from '../api';
import { GroupFormModal } from './GroupFormModal';
import { LevelTags } from './LevelTags';

/** The groups card. */
export function GroupsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const groups = useGroups();
  const remove = useDeleteGroup();
  const [editing, setEditing] = useState<TLineGroup | null | undefined>(undefined);
  const count = groups.data?.data.length ?? 0;
  return (
    <Card
      size="small"
      title={t('line.groups.title')}
      extra={
        <Space>
          <Tag>{t('line.groups.count', { count, max: LINE_GROUPS_MAX })}</Tag>
          <Button icon={<PlusOutlined />} onClick={() => setEditing(null)} disabled={count >= LINE_GROUPS_MAX} data-testid="line-group-add">
            {t('line.groups.add')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('line.groups.intro')}</Typography.Paragraph>
      <Table<TLineGroup>
        rowKey="id"
        size="small"
        loading={groups.isFetching}
        dataSource={groups.data?.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        onRow={(g) => ({ 'data-testid': `line-group-row-${g.name}` }) as object}
        locale={{ emptyText: <Empty description={t('line.groups.empty')} /> }}
        columns={[
          {
            title: t('line.groups.name'),
            dataIndex: 'name',
            render: (name: string, g) => <Link to={`/line-notify/group/${g.id}`}>{name}</Link>,
          },
          { title: t('line.groups.projects'), key: 'projects', render: (_, g) => g.projects.map((p) => p.name).join('、') || '—' },
          { title: t('line.groups.levels'), key: 'levels', render: (_, g) => <LevelTags levels={g.levels} /> },
          { title: t('line.groups.members'), key: 'members', render: (_, g) => g.members.length },
          {
            title: '',
            key: 'actions',
            render: (_, g) => (
              <Space>
                <Button size="small" onClick={() => setEditing(g)} data-testid={`line-group-edit-${g.name}`}>
                  {t('line.groups.edit')}
                </Button>
                <Popconfirm
                  title={t('line.groups.deleteConfirm', { name: g.name })}
                  onConfirm={() => remove.mutate(g.id, { onError: () => void message.error(t('errors.saveFailed')) })}
                  okButtonProps={{ 'data-testid': 'line-group-delete-confirm' }}
                >
                  <Button size="small" danger data-testid={`line-group-delete-${g.name}`}>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <GroupFormModal group={editing} onClose={() => setEditing(undefined)} />
    </Card>
  );
}

/** The Blockly programs of the rule tab: a list (compile state, enabled) opening the editor, with delete confirmed. */
import { PlusOutlined } from '@ant-design/icons';
import { BLOCKLY_PROGRAMS_MAX, type TBlocklyProgramSummary } from '@tessera/contracts';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useDeleteProgram, usePrograms } from './api';

/** The programs card of project `projectId`; `onOpen(null)` starts a new program. */
export function ProgramsCard({ projectId, onOpen }: { projectId: number; onOpen: (id: number | null) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const programs = usePrograms(projectId);
  const remove = useDeleteProgram(projectId);
  const count = programs.data?.total_items ?? 0;
  return (
    <Card
      size="small"
      title={t('projectRules.programs.title')}
      extra={
        <Space>
          <Tag>{t('projectRules.count', { count, max: BLOCKLY_PROGRAMS_MAX })}</Tag>
          <Button icon={<PlusOutlined />} onClick={() => onOpen(null)} disabled={count >= BLOCKLY_PROGRAMS_MAX} data-testid="program-add">
            {t('projectRules.programs.add')}
          </Button>
        </Space>
      }
    >
      <Table<TBlocklyProgramSummary>
        rowKey="id"
        size="small"
        loading={programs.isFetching}
        dataSource={programs.data?.data ?? []}
        pagination={false}
        onRow={(p) => ({ 'data-testid': `program-row-${p.name}` }) as object}
        locale={{ emptyText: <Empty description={t('projectRules.programs.empty')} /> }}
        columns={[
          { title: t('common.name'), dataIndex: 'name' },
          {
            title: t('projectRules.programs.state'),
            key: 'state',
            render: (_, p) =>
              p.ok ? (
                <Tag color="success">{t('projectRules.programs.ok')}</Tag>
              ) : (
                <Tag color="error">{t('projectRules.programs.errorCount', { count: p.error_count })}</Tag>
              ),
          },
          {
            title: t('projectRules.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean) => (on ? t('projectRules.enabled') : t('projectRules.disabled')),
          },
          {
            title: t('projectRules.programs.updated'),
            dataIndex: 'updated_at',
            render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: '',
            key: 'actions',
            render: (_, p) => (
              <Space>
                <Button size="small" onClick={() => onOpen(p.id)} data-testid={`program-open-${p.name}`}>
                  {t('projectRules.edit')}
                </Button>
                <Popconfirm
                  title={t('projectRules.programs.deleteConfirm', { name: p.name })}
                  onConfirm={() => remove.mutate(p.id, { onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`) })}
                >
                  <Button size="small" danger data-testid={`program-delete-${p.name}`}>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

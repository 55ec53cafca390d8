/** The simple rules of the rule tab: a table with add, edit, enable/disable and delete (confirmed first). */
import { PlusOutlined } from '@ant-design/icons';
import { SIMPLE_RULES_MAX, type TAlertLevel, type TSimpleRule } from '@tessera/contracts';
import { App, Button, Card, Empty, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteSimpleRule, useSimpleRules, useToggleSimpleRule } from './api';
import { simpleRuleChannels, simpleRuleCondition } from './ruleText';
import { SimpleRuleModal } from './SimpleRuleModal';

/** Tag colours of the alert levels (§3 alert node types). */
export const LEVEL_COLORS: Record<TAlertLevel, string> = { remind: 'blue', early_warning: 'orange', alert: 'red' };

/** The simple-rules card of project `projectId`. */
export function SimpleRulesCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const rules = useSimpleRules(projectId);
  const toggle = useToggleSimpleRule(projectId);
  const remove = useDeleteSimpleRule(projectId);
  const [editing, setEditing] = useState<TSimpleRule | null | undefined>(undefined);
  const count = rules.data?.total_items ?? 0;
  const failed = (e: Error) => void message.error(`${t('errors.saveFailed')}: ${e.message}`);
  return (
    <Card
      size="small"
      title={t('projectRules.simple.title')}
      extra={
        <Space>
          <Tag>{t('projectRules.count', { count, max: SIMPLE_RULES_MAX })}</Tag>
          <Button
            icon={<PlusOutlined />}
            onClick={() => setEditing(null)}
            disabled={count >= SIMPLE_RULES_MAX}
            data-testid="simple-rule-add"
          >
            {t('projectRules.simple.add')}
          </Button>
        </Space>
      }
    >
      <Table<TSimpleRule>
        rowKey="id"
        size="small"
        loading={rules.isFetching}
        dataSource={rules.data?.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        onRow={(r) => ({ 'data-testid': `simple-rule-row-${r.name}` }) as object}
        locale={{ emptyText: <Empty description={t('projectRules.simple.empty')} /> }}
        columns={[
          { title: t('common.name'), dataIndex: 'name' },
          { title: t('projectRules.simple.condition'), key: 'condition', render: (_, r) => simpleRuleCondition(r, t) },
          {
            title: t('projectRules.simple.level'),
            dataIndex: 'level',
            render: (l: TAlertLevel) => <Tag color={LEVEL_COLORS[l]}>{t(`projectRules.levels.${l}`)}</Tag>,
          },
          { title: t('projectRules.simple.message'), dataIndex: 'message' },
          { title: t('projectRules.simple.notify'), key: 'notify', render: (_, r) => simpleRuleChannels(r, t) || '—' },
          {
            title: t('projectRules.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, r) => (
              <Switch
                size="small"
                checked={on}
                aria-label={`${t('projectRules.enabled')}: ${r.name}`}
                onChange={(enabled) => toggle.mutate({ id: r.id, enabled }, { onError: failed })}
              />
            ),
          },
          {
            title: '',
            key: 'actions',
            render: (_, r) => (
              <Space>
                <Button size="small" onClick={() => setEditing(r)} data-testid={`simple-rule-edit-${r.name}`}>
                  {t('projectRules.edit')}
                </Button>
                <Popconfirm
                  title={t('projectRules.simple.deleteConfirm', { name: r.name })}
                  onConfirm={() => remove.mutate(r.id, { onError: failed })}
                  okButtonProps={{ 'data-testid': 'simple-rule-delete-confirm' }}
                >
                  <Button size="small" danger data-testid={`simple-rule-delete-${r.name}`}>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <SimpleRuleModal projectId={projectId} rule={editing} onClose={() => setEditing(undefined)} />
    </Card>
  );
}

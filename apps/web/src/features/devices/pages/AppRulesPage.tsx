/**
 * app-rules tab of the device detail (spec §2, §7 devices `userRules`; docs/decisions/device-control.md): a user's
 * own notification rules for this device — list, add, edit, delete. A vendor sees every user's rules read-only.
 */
import { type TUserRule, type TUserRuleInput, USER_RULES_MAX } from '@tessera/contracts';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Empty, Flex, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSession } from '../../../lib/session';
import { DeviceSubscriptionCard } from '../../notifications/DeviceSubscriptionCard';
import { AppRuleModal } from '../components/AppRuleModal';
import { useDeviceOutlet } from '../context';
import { useSaveUserRule, useUserRules } from '../controlApi';
import { conditionText } from '../model/control';

const LEVEL_COLOR = { remind: 'blue', early_warning: 'orange', alert: 'red' } as const;

/** The app-rules page. */
export default function AppRulesPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { device } = useDeviceOutlet();
  const isUser = getSession().level === 'user';
  const rules = useUserRules(device.tangram_id);
  const save = useSaveUserRule(device.tangram_id);
  const [editing, setEditing] = useState<TUserRule | null>(null);
  const [open, setOpen] = useState(false);
  const count = rules.data?.total_items ?? 0;

  const onError = () => void message.error(t('errors.saveFailed'));
  const submit = (body: TUserRuleInput) => {
    const done = {
      onSuccess: () => {
        setOpen(false);
        void message.success(t('common.saved'));
      },
      onError,
    };
    if (editing) save.update.mutate({ id: editing.id, body }, done);
    else save.create.mutate(body, done);
  };
  const openModal = (rule: TUserRule | null) => {
    setEditing(rule);
    setOpen(true);
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <DeviceSubscriptionCard tangramId={device.tangram_id} />
      {isUser ? (
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type="secondary">{t('deviceControl.rules.hint', { max: USER_RULES_MAX })}</Typography.Text>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={count >= USER_RULES_MAX}
            onClick={() => openModal(null)}
            data-testid="app-rule-add"
          >
            {t('deviceControl.rules.add')}
          </Button>
        </Flex>
      ) : (
        <Alert type="info" showIcon message={t('deviceControl.rules.vendorReadOnly')} data-testid="app-rules-readonly" />
      )}
      {rules.isError && <Alert type="error" showIcon message={t('errors.loadFailed')} />}
      <Table<TUserRule>
        rowKey="id"
        loading={rules.isLoading}
        dataSource={rules.data?.data ?? []}
        pagination={false}
        data-testid="app-rules"
        locale={{ emptyText: <Empty description={t('deviceControl.rules.empty')} /> }}
        onRow={(r) => ({ 'data-testid': `app-rule-row-${r.name}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('deviceControl.rules.name'), dataIndex: 'name' },
          {
            title: t('deviceControl.rules.condition'),
            key: 'condition',
            render: (_, r) => <Typography.Text code>{conditionText(r, i18n.language, t)}</Typography.Text>,
          },
          {
            title: t('deviceControl.rules.level'),
            dataIndex: 'level',
            render: (l: TUserRule['level']) => <Tag color={LEVEL_COLOR[l]}>{t(`deviceControl.rules.levels.${l}`)}</Tag>,
          },
          {
            title: t('deviceControl.rules.cooldown'),
            dataIndex: 'cooldown_s',
            render: (s: number) => `${s} ${t('deviceControl.rules.seconds')}`,
          },
          {
            title: t('deviceControl.rules.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean) => (
              <Tag color={on ? 'green' : 'default'}>{t(on ? 'deviceControl.rules.on' : 'deviceControl.rules.off')}</Tag>
            ),
          },
          ...(isUser
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, r: TUserRule) => (
                    <Space>
                      <Button size="small" icon={<EditOutlined />} onClick={() => openModal(r)} data-testid={`app-rule-edit-${r.name}`}>
                        {t('deviceControl.rules.editShort')}
                      </Button>
                      <Popconfirm
                        title={t('deviceControl.rules.deleteConfirm', { name: r.name })}
                        okText={t('common.delete')}
                        cancelText={t('common.cancel')}
                        okButtonProps={{ danger: true, 'data-testid': 'app-rule-delete-confirm' }}
                        onConfirm={() => save.remove.mutate(r.id, { onError })}
                      >
                        <Button size="small" danger icon={<DeleteOutlined />} data-testid={`app-rule-delete-${r.name}`}>
                          {t('common.delete')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : [{ title: t('deviceControl.rules.owner'), dataIndex: 'account_email' }]),
        ]}
      />
      {isUser && (
        <AppRuleModal
          device={device}
          rule={editing}
          open={open}
          saving={save.create.isPending || save.update.isPending}
          onClose={() => setOpen(false)}
          onSave={submit}
        />
      )}
    </Space>
  );
}

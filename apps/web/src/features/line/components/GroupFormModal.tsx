/**
 * Add or edit a push group (spec §3 "message flow"): name, the projects whose alerts it receives, the alert levels,
 * and members — linked accounts and LINE group chats the bot is in — at most LINE_GROUP_MEMBERS_MAX in all (spec §8
 * "Line Notify connection limit reached", also answered by the server). Validated by ZLineGroupInput.
 */
import { ALERT_LEVELS, LINE_GROUP_MEMBERS_MAX, type TLineGroup, type TLineGroupInput, ZLineGroupInput } from '@tessera/contracts';
import { App, Checkbox, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/zodRules';
import { useProjects } from '../../projects/api';
import { useLineChats, useLinkedUsers, useSaveGroup } from '../api';
import { lineErrorKey } from '../lineErrors';

const DEFAULTS: TLineGroupInput = { name: '', project_ids: [], levels: [...ALERT_LEVELS], account_ids: [], chat_ids: [] };

/** The form values of an existing group. */
function valuesOf(group: TLineGroup): TLineGroupInput {
  return {
    name: group.name,
    project_ids: group.projects.map((p) => p.id),
    levels: group.levels,
    account_ids: group.members.filter((m) => m.kind === 'account').map((m) => m.id),
    chat_ids: group.members.filter((m) => m.kind === 'chat').map((m) => m.id),
  };
}

/** The modal; `group` is the group to edit, null to add, undefined when closed. `onSaved` gets the saved group. */
export function GroupFormModal({
  group,
  onClose,
  onSaved,
}: {
  group: TLineGroup | null | undefined;
  onClose: () => void;
  onSaved?: (g: TLineGroup) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TLineGroupInput>();
  const open = group !== undefined;
  const projects = useProjects({ page: 1, limit: 200 });
  const users = useLinkedUsers(open);
  const chats = useLineChats(open);
  const save = useSaveGroup();
  const accountIds = Form.useWatch('account_ids', form) ?? [];
  const chatIds = Form.useWatch('chat_ids', form) ?? [];
  const memberCount = accountIds.length + chatIds.length;

  useEffect(() => {
    if (open) form.setFieldsValue(group ? valuesOf(group) : DEFAULTS);
  }, [open, group, form]);

  const submit = (values: TLineGroupInput) => {
    if (memberCount > LINE_GROUP_MEMBERS_MAX) return void message.error(t('line.errors.connectionLimit'));
    save.mutate(
      { id: group?.id ?? null, input: ZLineGroupInput.parse(values) },
      {
        onSuccess: (saved) => {
          message.success(t('common.saved'));
          onSaved?.(saved);
          onClose();
        },
        onError: (e) => void message.error(t(lineErrorKey(e))),
      },
    );
  };
  const rules = (field: keyof TLineGroupInput) => [zodRule(ZLineGroupInput, field, t)];
  return (
    <Modal
      open={open}
      title={group ? t('line.groups.edit') : t('line.groups.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'line-group-submit' }}
      destroyOnHidden
      width={640}
    >
      <Form<TLineGroupInput> form={form} layout="vertical" onFinish={submit} preserve={false} initialValues={DEFAULTS}>
        <Form.Item name="name" label={t('line.groups.name')} rules={rules('name')}>
          <Input data-testid="line-group-name" />
        </Form.Item>
        <Form.Item name="project_ids" label={t('line.groups.projects')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            loading={projects.isLoading}
            options={(projects.data?.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            data-testid="line-group-projects"
          />
        </Form.Item>
        <Form.Item name="levels" label={t('line.groups.levels')} rules={rules('levels')}>
          <Checkbox.Group options={ALERT_LEVELS.map((l) => ({ value: l, label: t(`line.levels.${l}`) }))} data-testid="line-group-levels" />
        </Form.Item>
        <Form.Item name="account_ids" label={t('line.groups.accounts')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            notFoundContent={t('line.groups.noLinked')}
            options={(users.data?.data ?? []).map((u) => ({
              value: u.account_id,
              label: u.line_name ? `${u.email} (${u.line_name})` : u.email,
            }))}
            data-testid="line-group-accounts"
          />
        </Form.Item>
        <Form.Item name="chat_ids" label={t('line.groups.chats')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            notFoundContent={t('line.groups.noChats')}
            options={(chats.data?.data ?? []).filter((c) => c.joined).map((c) => ({ value: c.id, label: c.name ?? `${c.kind} #${c.id}` }))}
            data-testid="line-group-chats"
          />
        </Form.Item>
        <Typography.Text type={memberCount > LINE_GROUP_MEMBERS_MAX ? 'danger' : 'secondary'} data-testid="line-group-member-count">
          {t('line.groups.count', { count: memberCount, max: LINE_GROUP_MEMBERS_MAX })} ·{' '}
          {t('line.groups.membersHelp', { max: LINE_GROUP_MEMBERS_MAX })}
        </Typography.Text>
      </Form>
    </Modal>
  );
}

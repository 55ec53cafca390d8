/**
 * Create or edit a project role (docs/decisions/project-roles.md): name, permissions (checkboxes), devices of the
 * project (searchable multi-select) and members (emails of the tenant's user accounts). Validation is the contracts'
 * schema (roleRules.ts); the server's refusals (name taken, unknown device or member) land on their field. Leaving
 * the page or closing the drawer with unsaved edits asks first.
 */
import { PROJECT_ROLE_PERMISSIONS, type TProjectRole, type TProjectRoleInput, ZProjectRoleInput } from '@tessera/contracts';
import { App, Button, Checkbox, Drawer, Flex, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../lib/http';
import { confirmDiscard, useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { useSaveProjectRole } from './api';
import { RoleDeviceSelect } from './RoleDeviceSelect';
import { roleRule } from './roleRules';

interface TProps {
  projectId: number;
  /** undefined = closed, null = a new role, a role = edit it. */
  role: TProjectRole | null | undefined;
  onClose: () => void;
}

const EMPTY: TProjectRoleInput = { name: '', permissions: [], device_ids: [], member_emails: [] };

const valuesOf = (role: TProjectRole | null): TProjectRoleInput =>
  role
    ? { name: role.name, permissions: role.permissions, device_ids: role.devices.map((d) => d.id), member_emails: role.member_emails }
    : EMPTY;

/** Items of `list` at the indexes named by `details` paths `body/<field>/<i>`. */
function itemsAt<T>(details: HttpError['details'], field: string, list: T[]): T[] {
  return (details ?? []).flatMap((d) => {
    const i = new RegExp(`^body/${field}/(\\d+)$`).exec(d.path)?.[1];
    return i === undefined ? [] : [list[Number(i)]];
  });
}

/** The form inside the drawer; mounted per opened role so its initial values are that role's. */
function RoleForm({ projectId, role, onClose }: { projectId: number; role: TProjectRole | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<TProjectRoleInput>();
  const save = useSaveProjectRole(projectId);
  const initial = valuesOf(role);
  const values = Form.useWatch([], form) as TProjectRoleInput | undefined;
  const dirty = !!values && JSON.stringify({ ...initial, ...values }) !== JSON.stringify(initial);
  useUnsavedChangesPrompt(dirty);

  const close = () => {
    if (!dirty) return onClose();
    confirmDiscard(modal, t, onClose);
  };
  const submit = (v: TProjectRoleInput) =>
    save.mutate(
      { id: role?.id, body: ZProjectRoleInput.parse(v) },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          onClose();
        },
        onError: (e) => {
          const err = e as HttpError;
          const body = ZProjectRoleInput.parse(v);
          if (err.status === 409) return form.setFields([{ name: 'name', errors: [t('projectRoles.nameTaken')] }]);
          const members = itemsAt(err.details, 'member_emails', body.member_emails);
          const devices = itemsAt(err.details, 'device_ids', body.device_ids);
          if (err.status === 404 && (members.length || devices.length)) {
            form.setFields([
              { name: 'member_emails', errors: members.length ? [t('projectRoles.unknownMembers', { emails: members.join(', ') })] : [] },
              { name: 'device_ids', errors: devices.length ? [t('projectRoles.unknownDevices')] : [] },
            ]);
            return;
          }
          modal.error({ title: t('errors.saveFailed'), content: err.message });
        },
      },
    );

  return (
    <Form<TProjectRoleInput> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
      <Form.Item name="name" label={t('common.name')} rules={[roleRule('name', t)]}>
        <Input data-testid="role-name" />
      </Form.Item>
      <Form.Item name="permissions" label={t('projectRoles.permissionsLabel')} rules={[roleRule('permissions', t)]}>
        <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
          {PROJECT_ROLE_PERMISSIONS.map((p) => (
            <Checkbox key={p} value={p} data-testid={`role-permission-${p}`}>
              {t(`projectRoles.permissions.${p}`)}{' '}
              <Typography.Text type="secondary">— {t(`projectRoles.permissionHints.${p}`)}</Typography.Text>
            </Checkbox>
          ))}
        </Checkbox.Group>
      </Form.Item>
      <Form.Item name="device_ids" label={t('projectRoles.devicesLabel')} rules={[roleRule('device_ids', t)]}>
        <RoleDeviceSelect projectId={projectId} initial={role?.devices ?? []} />
      </Form.Item>
      <Form.Item
        name="member_emails"
        label={t('projectRoles.membersLabel')}
        extra={t('projectRoles.membersHint')}
        rules={[roleRule('member_emails', t)]}
      >
        <Select mode="tags" tokenSeparators={[',', ' ', ';']} open={false} suffixIcon={null} data-testid="role-members" />
      </Form.Item>
      <Flex justify="end" gap={8}>
        <Button onClick={close} data-testid="role-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!dirty} data-testid="role-save">
          {t('common.save')}
        </Button>
      </Flex>
    </Form>
  );
}

/** The drawer. */
export function RoleDrawer({ projectId, role, onClose }: TProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={role !== undefined}
      onClose={onClose}
      closable={false}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      size="large"
      title={t(role ? 'projectRoles.editTitle' : 'projectRoles.createTitle', { name: role?.name ?? '' })}
    >
      {role !== undefined && <RoleForm key={role?.id ?? 'new'} projectId={projectId} role={role} onClose={onClose} />}
    </Drawer>
  );
}

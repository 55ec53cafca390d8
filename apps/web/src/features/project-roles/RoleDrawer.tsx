/**
 * Create or edit a role of any kind (docs/decisions/project-roles.md, roles.md): name, permissions (checkboxes),
 * devices of the project (project and device roles) or machines (machine roles), both searchable multi-selects, and
 * members (emails of the tenant's user accounts). Validation is the contracts'
 * schema (roleRules.ts); the server's refusals (name taken, unknown device or member) land on their field. Leaving
 * the page or closing the drawer with unsaved edits asks first.
 */
import { PROJECT_ROLE_PERMISSIONS, type TProjectRole, type TRoleKind, ZMachineRoleInput, ZProjectRoleInput } from '@tessera/contracts';
import { ErrorCode } from '@tessera/contracts';
import { App, Checkbox, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormActions, FormDrawer } from '../../components/FormDrawer';
import type { HttpError } from '../../lib/http';
import { confirmDiscard, useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { type TRoleBody, useSaveRole } from './api';
import { RoleDeviceSelect } from './RoleDeviceSelect';
import { RoleMachineSelect } from './RoleMachineSelect';
import { roleRule } from './roleRules';

interface TProps {
  kind: TRoleKind;
  /** The project of a project or device role; null for a machine role. */
  projectId: number | null;
  /** undefined = closed, null = a new role, a role = edit it. */
  role: TProjectRole | null | undefined;
  onClose: () => void;
}

/** The form's values: the union of both bodies' fields (the kind decides which list is sent). */
type TRoleValues = TRoleBody & { device_ids?: number[]; machine_ids?: number[] };

const valuesOf = (kind: TRoleKind, role: TProjectRole | null): TRoleValues => {
  const base = { name: role?.name ?? '', permissions: role?.permissions ?? [], member_emails: role?.member_emails ?? [] };
  return kind === 'machine'
    ? { ...base, machine_ids: role?.machines.map((m) => m.id) ?? [] }
    : { ...base, device_ids: role?.devices.map((d) => d.id) ?? [] };
};

/** The body of `kind` from the form's values (the contracts' schema: trims, lower-cases emails). */
const bodyOf = (kind: TRoleKind, v: TRoleValues): TRoleBody =>
  kind === 'machine' ? ZMachineRoleInput.parse(v) : ZProjectRoleInput.parse(v);

/** Items of `list` at the indexes named by `details` paths `body/<field>/<i>`. */
function itemsAt<T>(details: HttpError['details'], field: string, list: T[]): T[] {
  return (details ?? []).flatMap((d) => {
    const i = new RegExp(`^body/${field}/(\\d+)$`).exec(d.path)?.[1];
    return i === undefined ? [] : [list[Number(i)]];
  });
}

/** The form inside the drawer; mounted per opened role so its initial values are that role's. */
function RoleForm({ kind, projectId, role, onClose }: Omit<TProps, 'role'> & { role: TProjectRole | null }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<TRoleValues>();
  const save = useSaveRole(kind, projectId);
  const initial = valuesOf(kind, role);
  const values = Form.useWatch([], form) as TRoleValues | undefined;
  const dirty = !!values && JSON.stringify({ ...initial, ...values }) !== JSON.stringify(initial);
  useUnsavedChangesPrompt(dirty);

  const close = () => {
    if (!dirty) return onClose();
    confirmDiscard(modal, t, onClose);
  };
  const submit = (v: TRoleValues) =>
    save.mutate(
      { id: role?.id, body: bodyOf(kind, v) },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          onClose();
        },
        onError: (e) => {
          const err = e as HttpError;
          const body = bodyOf(kind, v);
          if (err.status === 409) return form.setFields([{ name: 'name', errors: [t('projectRoles.nameTaken')] }]);
          if (err.code === ErrorCode.PlanLimit) return modal.warning({ title: t('projectRoles.planLimit'), content: err.message });
          const listField = kind === 'machine' ? 'machine_ids' : 'device_ids';
          const members = itemsAt(err.details, 'member_emails', body.member_emails);
          const held = itemsAt(err.details, listField, 'machine_ids' in body ? body.machine_ids : body.device_ids);
          if (err.status === 404 && (members.length || held.length)) {
            form.setFields([
              { name: 'member_emails', errors: members.length ? [t('projectRoles.unknownMembers', { emails: members.join(', ') })] : [] },
              {
                name: listField,
                errors: held.length ? [t(kind === 'machine' ? 'projectRoles.unknownMachines' : 'projectRoles.unknownDevices')] : [],
              },
            ]);
            return;
          }
          modal.error({ title: t('errors.saveFailed'), content: err.message });
        },
      },
    );

  return (
    <Form<TRoleValues> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
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
      {kind === 'machine' || projectId === null ? (
        <Form.Item name="machine_ids" label={t('projectRoles.machinesLabel')} rules={[roleRule('machine_ids', t)]}>
          <RoleMachineSelect initial={role?.machines ?? []} />
        </Form.Item>
      ) : (
        <Form.Item name="device_ids" label={t('projectRoles.devicesLabel')} rules={[roleRule('device_ids', t)]}>
          <RoleDeviceSelect projectId={projectId} initial={role?.devices ?? []} />
        </Form.Item>
      )}
      <Form.Item
        name="member_emails"
        label={t('projectRoles.membersLabel')}
        extra={t('projectRoles.membersHint')}
        rules={[roleRule('member_emails', t)]}
      >
        <Select mode="tags" tokenSeparators={[',', ' ', ';']} open={false} suffixIcon={null} data-testid="role-members" />
      </Form.Item>
      <FormActions onCancel={close} saving={save.isPending} dirty={dirty} testIdPrefix="role" />
    </Form>
  );
}

/** The drawer. */
export function RoleDrawer({ kind, projectId, role, onClose }: TProps) {
  const { t } = useTranslation();
  return (
    <FormDrawer
      open={role !== undefined}
      onClose={onClose}
      title={t(role ? 'projectRoles.editTitle' : 'projectRoles.createTitle', {
        name: role?.name ?? '',
        kind: t(`projectRoles.kindOne.${kind}`),
      })}
    >
      {role !== undefined && <RoleForm key={role?.id ?? 'new'} kind={kind} projectId={projectId} role={role} onClose={onClose} />}
    </FormDrawer>
  );
}

/**
 * Create or edit a machine (docs/decisions/machines.md "Machine"): its configure (chosen once), name, serial number,
 * location, ISO machine class, and for each component of the configure the device bound to it, picked with the
 * console's device picker (one device, searched on the server). Refusals land on their fields: a name taken, a device
 * that is not of the component's product, missing, or bound to another machine (the server names which).
 */
import { ErrorCode, MAX_PAGE_LIMIT, type TMachineComponent, type TMachineInstance } from '@tessera/contracts';
import { App, Flex, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormActions, FormDrawer } from '../../../components/FormDrawer';
import type { HttpError } from '../../../lib/http';
import { confirmDiscard, useUnsavedChangesPrompt } from '../../../lib/useUnsavedChangesPrompt';
import { DevicePicker } from '../../devices/components/DevicePicker';
import { useMachineConfigures, useSaveMachineInstance } from '../api';
import { instanceBodyOf, instanceFieldError, instanceFormOf, refusedComponents, type TInstanceForm } from '../model/machineForms';
import { MachineClassSelect } from './MachineClassSelect';

interface TProps {
  /** undefined = closed, null = a new machine, a machine = edit it. */
  machine: TMachineInstance | null | undefined;
  /** The configure a new machine starts with (the list's filter), if any. */
  configureId?: number;
  onClose: () => void;
  /** Told the saved machine. */
  onSaved?: (machine: TMachineInstance) => void;
}

const REFUSAL_KEYS: Record<number, string> = {
  400: 'machines.instance.bindingWrongProduct',
  404: 'machines.instance.bindingNotFound',
  409: 'machines.instance.bindingTaken',
};

/** The form inside the drawer; mounted per opened machine so its initial values are that machine's. */
function InstanceForm({ machine, configureId, onClose, onSaved }: Omit<TProps, 'machine'> & { machine: TMachineInstance | null }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<TInstanceForm>();
  const save = useSaveMachineInstance();
  const configures = useMachineConfigures({ page: 1, limit: MAX_PAGE_LIMIT }, machine === null);
  const initial = instanceFormOf(machine, configureId);
  const values = Form.useWatch([], form) as TInstanceForm | undefined;
  const chosenId = Form.useWatch('configure_id', form) ?? initial.configure_id;
  const components: TMachineComponent[] = machine
    ? machine.components
    : (configures.data?.data.find((c) => c.id === chosenId)?.components ?? []);
  const componentIds = components.map((c) => c.id);
  const bodyOf = (v: TInstanceForm) => instanceBodyOf(v, componentIds);
  const dirty =
    !!values &&
    JSON.stringify([values.configure_id, bodyOf({ ...initial, ...values })]) !== JSON.stringify([initial.configure_id, bodyOf(initial)]);
  useUnsavedChangesPrompt(dirty);

  const close = () => (dirty ? confirmDiscard(modal, t, onClose) : onClose());
  const fieldRule = (field: 'name' | 'serial_number' | 'location') => ({
    validator: async (_rule: unknown, value: unknown) => {
      const error = instanceFieldError(field, value, t);
      if (error) throw new Error(error);
    },
  });
  const refused = (err: HttpError, v: TInstanceForm) => {
    const named = refusedComponents(err.details, bodyOf(v));
    if (named.length && REFUSAL_KEYS[err.status]) {
      const text = err.status === 409 ? `${t(REFUSAL_KEYS[409])} ${err.message}` : t(REFUSAL_KEYS[err.status]);
      return form.setFields(named.map((id) => ({ name: ['devices', String(id)], errors: [text] })));
    }
    if (err.status === 409) return form.setFields([{ name: 'name', errors: [t('machines.instance.nameTaken')] }]);
    if (err.code === ErrorCode.PlanLimit) return modal.error({ title: t('machines.planLimitTitle'), content: err.message });
    modal.error({ title: t('errors.saveFailed'), content: err.message });
  };
  const submit = (v: TInstanceForm) =>
    save.mutate(
      { id: machine?.id, body: machine ? bodyOf(v) : { ...bodyOf(v), configure_id: v.configure_id ?? 0 } },
      {
        onSuccess: (saved) => {
          void message.success(t('common.saved'));
          onClose();
          onSaved?.(saved);
        },
        onError: (e) => refused(e as HttpError, v),
      },
    );

  return (
    <Form<TInstanceForm> form={form} layout="vertical" initialValues={initial} onFinish={submit} scrollToFirstError>
      <Form.Item
        name="configure_id"
        label={t('machines.instance.configure')}
        rules={[{ required: true, message: t('machines.rules.configure') }]}
        extra={machine ? t('machines.instance.configureFixed') : undefined}
      >
        <Select<number>
          showSearch
          optionFilterProp="label"
          disabled={!!machine}
          loading={configures.isLoading}
          options={
            machine
              ? [{ value: machine.configure_id, label: machine.configure_name }]
              : (configures.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))
          }
          placeholder={t('machines.instance.configurePlaceholder')}
          onChange={() => form.setFieldValue('devices', {})}
          data-testid="instance-configure"
        />
      </Form.Item>
      <Form.Item name="name" label={t('common.name')} rules={[fieldRule('name')]}>
        <Input data-testid="instance-name" />
      </Form.Item>
      <Flex gap={12}>
        <Form.Item name="serial_number" label={t('machines.instance.serial')} rules={[fieldRule('serial_number')]} style={{ flex: 1 }}>
          <Input data-testid="instance-serial" />
        </Form.Item>
        <Form.Item name="location" label={t('machines.instance.location')} rules={[fieldRule('location')]} style={{ flex: 1 }}>
          <Input data-testid="instance-location" />
        </Form.Item>
      </Flex>
      <Form.Item name="machine_class" label={t('machines.instance.class')} extra={t('machines.instance.classHint')}>
        <MachineClassSelect />
      </Form.Item>
      <Typography.Title level={5}>{t('machines.instance.bindings')}</Typography.Title>
      {components.length === 0 && (
        <Typography.Paragraph type="secondary">{t('machines.instance.chooseConfigureFirst')}</Typography.Paragraph>
      )}
      {components.map((c, i) => (
        <Form.Item
          key={c.id}
          name={['devices', String(c.id)]}
          label={`${c.name} · ${c.product_name}`}
          extra={t('machines.instance.bindingHint', { product: c.product_name, keys: c.keys.join(', ') })}
        >
          <DevicePicker max={1} testId={`binding-${i}`} placeholder={t('machines.instance.bindingPlaceholder')} />
        </Form.Item>
      ))}
      <FormActions onCancel={close} saving={save.isPending} dirty={dirty} testIdPrefix="instance" />
    </Form>
  );
}

/** The drawer. */
export function InstanceDrawer({ machine, configureId, onClose, onSaved }: TProps) {
  const { t } = useTranslation();
  return (
    <FormDrawer
      open={machine !== undefined}
      onClose={onClose}
      title={t(machine ? 'machines.instance.editTitle' : 'machines.instance.createTitle', { name: machine?.name ?? '' })}
    >
      {machine !== undefined && (
        <InstanceForm key={machine?.id ?? 'new'} machine={machine} configureId={configureId} onClose={onClose} onSaved={onSaved} />
      )}
    </FormDrawer>
  );
}

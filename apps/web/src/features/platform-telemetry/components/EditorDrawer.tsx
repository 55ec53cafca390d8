/**
 * The new/edit form of a platform telemetry (spec §3 "name, formula, coefficient, mounted devices"; §5 name ≤ 32):
 * mounted devices each under an alias, the formula with completion and problem marks (FormulaEditor), a coefficient
 * and a unit, and a live preview of the value on the devices' latest data before saving. Closing the drawer with
 * unsaved changes (close button, mask, Escape) asks first.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DEVICE_ALIAS_PATTERN,
  PLATFORM_TELEMETRY_DEVICES_MAX,
  PLATFORM_TELEMETRY_NAME_MAX,
  type TFormulaPreviewInput,
  type TPlatformTelemetry,
  type TPlatformTelemetryInput,
} from '@tessera/contracts';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Space, Spin, Statistic, Typography } from 'antd';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../../lib/http';
import { confirmDiscard } from '../../../lib/useUnsavedChangesPrompt';
import { useDeviceKeys } from '../../devices/api';
import { DevicePicker } from '../../devices/components/DevicePicker';
import { formatLocalTime, formatValues } from '../../devices/model/format';
import { useFormulaPreview, useSavePlatformTelemetry } from '../api';
import { nextAlias, type TEditorDevice } from '../model/formula';
import { FormulaEditor } from './FormulaEditor';

const PREVIEW_DEBOUNCE_MS = 400;

interface TValues {
  name: string;
  formula: string;
  coefficient: number;
  unit: string;
  devices: { alias: string; tangram_ids: string[] }[];
}

/** Props: the platform telemetry to edit (none: a new one), whether the drawer is open, and what to do after. */
export interface TEditorDrawerProps {
  editing: TPlatformTelemetry | null;
  open: boolean;
  onClose: () => void;
  onSaved: (saved: TPlatformTelemetry) => void;
}

/** The drawer; a fresh form each time it opens. */
export function EditorDrawer({ editing, open, onClose, onSaved }: TEditorDrawerProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const dirty = useRef(false);
  useEffect(() => {
    if (open) dirty.current = false;
  }, [open]);
  return (
    <Drawer
      open={open}
      onClose={() => (dirty.current ? confirmDiscard(modal, t, onClose) : onClose())}
      width={640}
      destroyOnHidden
      title={editing ? t('platformTelemetry.edit', { name: editing.name }) : t('platformTelemetry.new')}
      data-testid="pt-editor"
    >
      {open && <EditorForm editing={editing} onSaved={onSaved} dirty={dirty} />}
    </Drawer>
  );
}

function EditorForm({ editing, onSaved, dirty }: Pick<TEditorDrawerProps, 'editing' | 'onSaved'> & { dirty: RefObject<boolean> }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<TValues>();
  const save = useSavePlatformTelemetry();
  const [saveError, setSaveError] = useState<string | null>(null);
  const watched = Form.useWatch([], form) as TValues | undefined;
  const mounted = (watched?.devices ?? []).filter((d) => d?.tangram_ids?.[0]);
  const keyQueries = useDeviceKeys(mounted.map((d) => d.tangram_ids[0]));
  // The keys each mounted device's project defines (from the same metadata the server checks against).
  const editorDevices = useMemo<TEditorDevice[]>(() => {
    const known = new Map((editing?.devices ?? []).map((d) => [d.tangram_id, d]));
    return mounted.map((d) => {
      const id = d.tangram_ids[0];
      return { alias: d.alias, name: known.get(id)?.name ?? id.slice(-12), keys: known.get(id)?.keys ?? keyQueries.keys.map((k) => k.key) };
    });
  }, [mounted, editing, keyQueries.keys]);

  // The preview follows the form, a moment after typing stops.
  const [previewInput, setPreviewInput] = useState<TFormulaPreviewInput | null>(null);
  const previewSource = JSON.stringify([watched?.formula, watched?.coefficient, mounted.map((d) => [d.alias, d.tangram_ids[0]])]);
  useEffect(() => {
    const timer = setTimeout(() => {
      const [formula, coefficient, devices] = JSON.parse(previewSource) as [string | undefined, number | undefined, [string, string][]];
      setPreviewInput(
        formula?.trim() && devices.length
          ? { formula, coefficient: coefficient ?? 1, devices: devices.map(([alias, tangram_id]) => ({ alias, tangram_id })) }
          : null,
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [previewSource]);
  const preview = useFormulaPreview(previewInput);

  const initial: TValues = editing
    ? {
        name: editing.name,
        formula: editing.formula,
        coefficient: editing.coefficient,
        unit: editing.unit,
        devices: editing.devices.map((d) => ({ alias: d.alias, tangram_ids: [d.tangram_id] })),
      }
    : { name: '', formula: '', coefficient: 1, unit: '', devices: [{ alias: 'm1', tangram_ids: [] }] };

  const submit = (v: TValues) => {
    setSaveError(null);
    const body: TPlatformTelemetryInput = {
      name: v.name,
      formula: v.formula,
      coefficient: v.coefficient,
      unit: v.unit ?? '',
      devices: v.devices.map((d) => ({ alias: d.alias, tangram_id: d.tangram_ids[0] })),
    };
    save.mutate(
      { id: editing?.id, body },
      {
        onSuccess: onSaved,
        onError: (e) => {
          const err = e as HttpError;
          const fields = (err.details ?? []).map((d) => ({
            name: d.path.startsWith('devices.') ? ['devices', Number(d.path.split('.')[1]), 'tangram_ids'] : [d.path.split('.')[0]],
            errors: [d.message],
          }));
          if (err.status === 409) form.setFields([{ name: 'name', errors: [t('platformTelemetry.nameTaken')] }]);
          else if (fields.length) form.setFields(fields as never);
          else setSaveError(err.message);
        },
      },
    );
  };

  const problem = preview.data?.problem ?? null;
  return (
    <Form<TValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={submit}
      onValuesChange={() => {
        dirty.current = true;
      }}
      data-testid="pt-form"
    >
      <Space align="start" wrap>
        <Form.Item
          name="name"
          label={t('platformTelemetry.name')}
          rules={[
            { required: true, whitespace: true, message: t('platformTelemetry.nameRequired') },
            { max: PLATFORM_TELEMETRY_NAME_MAX, message: t('platformTelemetry.nameMax', { max: PLATFORM_TELEMETRY_NAME_MAX }) },
          ]}
        >
          <Input style={{ width: 280 }} data-testid="pt-name" />
        </Form.Item>
        <Form.Item name="unit" label={t('platformTelemetry.unit')} rules={[{ max: 16 }]}>
          <Input style={{ width: 120 }} data-testid="pt-unit" />
        </Form.Item>
      </Space>
      <Typography.Title level={5}>{t('platformTelemetry.devices')}</Typography.Title>
      <Form.List name="devices">
        {(fields, { add, remove }) => (
          <div style={{ margin: '8px 0 16px' }}>
            {fields.map((field, i) => (
              <Space key={field.key} align="start" style={{ display: 'flex' }}>
                <Form.Item
                  name={[field.name, 'alias']}
                  rules={[{ required: true, pattern: DEVICE_ALIAS_PATTERN, message: t('platformTelemetry.aliasRule') }]}
                >
                  <Input style={{ width: 90, fontFamily: 'monospace' }} data-testid={`pt-alias-${i}`} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'tangram_ids']}
                  rules={[{ required: true, type: 'array', min: 1, message: t('platformTelemetry.deviceRequired') }]}
                >
                  <DevicePicker max={1} testId={`pt-device-${i}`} style={{ width: 380 }} />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  disabled={fields.length === 1}
                  onClick={() => remove(field.name)}
                  aria-label={t('platformTelemetry.unmount')}
                  data-testid={`pt-unmount-${i}`}
                />
              </Space>
            ))}
            <Button
              icon={<PlusOutlined />}
              disabled={fields.length >= PLATFORM_TELEMETRY_DEVICES_MAX}
              onClick={() => add({ alias: nextAlias((watched?.devices ?? []).map((d) => d?.alias)), tangram_ids: [] })}
              data-testid="pt-mount"
            >
              {t('platformTelemetry.mount')}
            </Button>
          </div>
        )}
      </Form.List>
      <Form.Item
        name="formula"
        label={t('platformTelemetry.formula')}
        extra={t('platformTelemetry.formulaHelp')}
        rules={[{ required: true, whitespace: true, message: t('platformTelemetry.formulaRequired') }]}
      >
        <FormulaEditor devices={editorDevices} problem={problem} />
      </Form.Item>
      <Form.Item name="coefficient" label={t('platformTelemetry.coefficient')} rules={[{ required: true, type: 'number' }]}>
        <InputNumber style={{ width: 160 }} data-testid="pt-coefficient" />
      </Form.Item>
      <div data-testid="pt-preview" style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t('platformTelemetry.preview')} </Typography.Text>
        {preview.isFetching && <Spin size="small" />}
        {preview.data?.value !== null && preview.data?.value !== undefined && !problem && (
          <Statistic
            value={formatValues([preview.data.value], i18n.language)}
            suffix={watched?.unit}
            valueStyle={{ fontSize: 20 }}
            title={preview.data.ts ? t('platformTelemetry.previewAt', { time: formatLocalTime(preview.data.ts) }) : undefined}
          />
        )}
        {preview.data?.run_error && !problem && (
          <Typography.Text type="warning" data-testid="pt-preview-waiting">
            {t('platformTelemetry.noValue', { reason: preview.data.run_error })}
          </Typography.Text>
        )}
      </div>
      {saveError && <Alert type="error" showIcon message={saveError} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="pt-save">
        {t('platformTelemetry.save')}
      </Button>
    </Form>
  );
}

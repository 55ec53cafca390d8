/**
 * The widget settings form (docs/dashboard.md "Widgets"): the type (when adding), a title and the type's settings —
 * devices from the viewer's visible devices, keys those devices have, ranges, function, refresh (5, 10 or 30 min),
 * gauge bounds and thresholds. Answers the widget's type, title and parameter (a JSON string, spec §3).
 */
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AGG_FNS,
  DASHBOARD_RANGES_MS,
  DASHBOARD_REFRESH_MIN,
  parseWidgetParameter,
  type TWidget,
  type TWidgetType,
  WIDGET_TYPES,
} from '@tessera/contracts';
import { Button, ColorPicker, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDeviceKeys } from '../../devices/api';
import { DevicePicker } from '../../devices/components/DevicePicker';
import { formatDuration } from '../../devices/model/format';
import { useSession } from '../../../lib/useSession';
import { usePlatformTelemetryList } from '../../platform-telemetry/api';

/** The form's fields, every type's together (a type uses its own). */
export interface TValues {
  type: TWidgetType;
  title: string;
  devices: string[];
  keys: string[];
  key?: string;
  min: number;
  max: number;
  thresholds: { value: number; color: string }[];
  fn: (typeof AGG_FNS)[number];
  range_ms: number;
  refresh_min: number;
  limit: number;
  platform_telemetry_id?: number;
}

const DEFAULTS: TValues = {
  type: 'latest',
  title: '',
  devices: [],
  keys: [],
  min: 0,
  max: 100,
  thresholds: [],
  fn: 'avg',
  range_ms: 86_400_000,
  refresh_min: 5,
  limit: 10,
};

/** Form values of a stored widget. */
function toValues(widget: Pick<TWidget, 'type' | 'title' | 'parameter'>): TValues {
  const parsed = parseWidgetParameter(widget.type, widget.parameter);
  const p = (parsed.ok ? parsed.value : {}) as Record<string, unknown>;
  const series = (p.series as { tangram_id: string; key: string }[] | undefined) ?? [];
  return {
    ...DEFAULTS,
    ...(p as Partial<TValues>),
    type: widget.type,
    title: widget.title,
    devices: series.length
      ? [...new Set(series.map((s) => s.tangram_id))]
      : ((p.tangram_ids as string[]) ?? (p.tangram_id ? [p.tangram_id as string] : [])),
    keys: [...new Set(series.map((s) => s.key))],
    key: p.key as string | undefined,
  };
}

/** The parameter of `v` for its type. */
export function toParameter(form: Partial<TValues> & Pick<TValues, 'type'>): Record<string, unknown> {
  // Fields of other types are not in the form (preserve: false): fill them from the defaults.
  const v: TValues = { ...DEFAULTS, ...form };
  const [device] = v.devices;
  switch (v.type) {
    case 'latest':
      return { tangram_id: device, key: v.key };
    case 'gauge':
      return { tangram_id: device, key: v.key, min: v.min, max: v.max, thresholds: v.thresholds };
    case 'line':
    case 'bar':
      return {
        series: v.devices.flatMap((tangram_id) => v.keys.map((key) => ({ tangram_id, key }))).slice(0, 10),
        fn: v.fn,
        range_ms: v.range_ms,
        refresh_min: v.refresh_min,
      };
    case 'status':
      return { tangram_id: device };
    case 'alerts':
      return { limit: v.limit };
    case 'devices':
      return { tangram_ids: v.devices, ...(v.key ? { key: v.key } : {}) };
    case 'platform':
      return { platform_telemetry_id: v.platform_telemetry_id, range_ms: v.range_ms };
  }
}

const SINGLE_DEVICE: readonly TWidgetType[] = ['latest', 'gauge', 'status'];

interface TEditorProps {
  widget?: Pick<TWidget, 'type' | 'title' | 'parameter'>;
  onClose: () => void;
  onDone: (w: { type: TWidgetType; title: string; parameter: string }) => void;
}

/** The modal while `open`; `widget` is the one edited (absent: a new widget). Each opening gets a fresh form. */
export function WidgetEditor({ open, ...props }: TEditorProps & { open: boolean }) {
  return open ? <EditorModal {...props} /> : null;
}

function EditorModal({ widget, onClose, onDone }: TEditorProps) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<TValues>();
  const type = Form.useWatch('type', form) ?? widget?.type ?? 'latest';
  const chosen = Form.useWatch('devices', form) ?? [];
  const keys = useDeviceKeys(chosen);
  // Platform telemetry is the tenant's (vendors); a user's editor does not offer the widget.
  const isVendor = useSession().level !== 'user';
  const platform = usePlatformTelemetryList({ page: 1, limit: 100 }, isVendor && type === 'platform');
  const keyOptions = keys.keys.map((k) => ({ value: k.key, label: k.unit ? `${k.name} (${k.unit})` : k.name }));
  const submit = (v: TValues) => {
    const title = v.title.trim();
    onDone({ type: v.type, title, parameter: JSON.stringify(toParameter(v)) });
  };
  const single = SINGLE_DEVICE.includes(type);
  // The range of a chart: line, bar and platform-telemetry widgets.
  const rangeSelect = (
    <Select
      style={{ width: 140 }}
      options={DASHBOARD_RANGES_MS.map((ms) => ({ value: ms, label: formatDuration(ms, i18n.language) }))}
      data-testid="widget-range"
    />
  );
  return (
    <Modal
      open
      title={widget ? t('dashboard.editWidget') : t('dashboard.addWidget')}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'widget-save' }}
      width={600}
    >
      <Form<TValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={widget ? toValues(widget) : DEFAULTS}
        onFinish={submit}
        data-testid="widget-form"
      >
        <Form.Item name="type" label={t('dashboard.type')}>
          <Select
            disabled={widget !== undefined}
            options={WIDGET_TYPES.filter((w) => w !== 'platform' || isVendor).map((w) => ({ value: w, label: t(`dashboard.types.${w}`) }))}
            data-testid="widget-type"
          />
        </Form.Item>
        <Form.Item name="title" label={t('dashboard.title')} rules={[{ max: 32 }]}>
          <Input data-testid="widget-title" />
        </Form.Item>
        {type === 'platform' && (
          <>
            <Form.Item
              name="platform_telemetry_id"
              label={t('dashboard.platformTelemetry')}
              rules={[{ required: true, message: t('dashboard.platformRequired') }]}
            >
              <Select
                showSearch
                optionFilterProp="label"
                loading={platform.isLoading}
                options={(platform.data?.data ?? []).map((pt) => ({ value: pt.id, label: pt.unit ? `${pt.name} (${pt.unit})` : pt.name }))}
                notFoundContent={t('dashboard.platformNone')}
                data-testid="widget-platform"
              />
            </Form.Item>
            <Form.Item name="range_ms" label={t('dashboard.range')}>
              {rangeSelect}
            </Form.Item>
          </>
        )}
        {type !== 'alerts' && type !== 'platform' && (
          <Form.Item
            name="devices"
            label={single ? t('dashboard.device') : t('dashboard.devices')}
            rules={[{ required: true, type: 'array', min: 1, message: t('dashboard.devicesRequired') }]}
          >
            <DevicePicker max={single ? 1 : type === 'devices' ? 20 : 5} testId="widget-devices" />
          </Form.Item>
        )}
        {(type === 'latest' || type === 'gauge' || type === 'devices') && (
          <Form.Item name="key" label={t('dashboard.key')} rules={[{ required: type !== 'devices', message: t('dashboard.keyRequired') }]}>
            <Select allowClear={type === 'devices'} options={keyOptions} loading={keys.loading} data-testid="widget-key" />
          </Form.Item>
        )}
        {(type === 'line' || type === 'bar') && (
          <>
            <Form.Item
              name="keys"
              label={t('dashboard.keys')}
              rules={[{ required: true, type: 'array', min: 1, message: t('dashboard.keyRequired') }]}
            >
              <Select mode="multiple" options={keyOptions} loading={keys.loading} data-testid="widget-keys" />
            </Form.Item>
            <Space wrap>
              <Form.Item name="fn" label={t('dashboard.fn')}>
                <Select style={{ width: 120 }} options={AGG_FNS.map((fn) => ({ value: fn, label: t(`downloads.fns.${fn}`) }))} />
              </Form.Item>
              <Form.Item name="range_ms" label={t('dashboard.range')}>
                {rangeSelect}
              </Form.Item>
              <Form.Item name="refresh_min" label={t('dashboard.refresh')}>
                <Select
                  style={{ width: 140 }}
                  options={DASHBOARD_REFRESH_MIN.map((m) => ({ value: m, label: formatDuration(m * 60_000, i18n.language) }))}
                  data-testid="widget-refresh"
                />
              </Form.Item>
            </Space>
          </>
        )}
        {type === 'gauge' && (
          <>
            <Space>
              <Form.Item name="min" label={t('dashboard.min')} rules={[{ required: true }]}>
                <InputNumber data-testid="widget-min" />
              </Form.Item>
              <Form.Item
                name="max"
                label={t('dashboard.max')}
                dependencies={['min']}
                rules={[
                  { required: true },
                  ({ getFieldValue }) => ({
                    validator: (_, v: number) =>
                      v > getFieldValue('min') ? Promise.resolve() : Promise.reject(new Error(t('dashboard.maxAboveMin'))),
                  }),
                ]}
              >
                <InputNumber data-testid="widget-max" />
              </Form.Item>
            </Space>
            <Form.List name="thresholds">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((f) => (
                    <Space key={f.key} align="baseline">
                      <Form.Item name={[f.name, 'value']} label={t('dashboard.threshold')} rules={[{ required: true }]}>
                        <InputNumber />
                      </Form.Item>
                      <Form.Item name={[f.name, 'color']} label={t('dashboard.color')} getValueFromEvent={(c) => c.toHexString()}>
                        <ColorPicker format="hex" disabledAlpha />
                      </Form.Item>
                      <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('common.delete')} />
                    </Space>
                  ))}
                  {fields.length < 5 && (
                    <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ value: 0, color: '#faad14' })}>
                      {t('dashboard.addThreshold')}
                    </Button>
                  )}
                </>
              )}
            </Form.List>
          </>
        )}
        {type === 'alerts' && (
          <Form.Item name="limit" label={t('dashboard.limit')}>
            <InputNumber min={1} max={100} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * The new-export form (docs/downloads.md): devices the viewer may see (at most DOWNLOAD_MAX_DEVICES), keys (none:
 * every key each device reported), a range of at most HISTORY_RANGE_MAX_DAYS, raw points or buckets (function and
 * bucket size), one CSV or a zip of one CSV per device. Opened from the download centre and, prefilled, from the
 * history chart; the job is packaged in the background and followed in the download centre.
 */
import {
  AGG_FNS,
  DOWNLOAD_BUCKETS_MS,
  DOWNLOAD_MAX_DEVICES,
  HISTORY_RANGE_MAX_DAYS,
  type TAggFn,
  type TDownloadJob,
  type TDownloadJobCreate,
} from '@tessera/contracts';
import { DatePicker, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useDeviceKeys } from '../../devices/api';
import { DevicePicker } from '../../devices/components/DevicePicker';
import { formatDuration } from '../../devices/model/format';
import { clampRange, isDayDisabled, RANGE_PRESETS } from '../../devices/model/range';
import { useCreateDownloadJob } from '../api';

/** What the form may start with. */
export interface TExportPreset {
  tangramIds?: string[];
  keys?: string[];
  range?: readonly [number, number];
  mode?: 'raw' | 'bucketed';
  fn?: TAggFn;
}

interface TValues {
  name?: string;
  tangram_ids: string[];
  keys: string[];
  range: [Dayjs, Dayjs];
  mode: 'raw' | 'bucketed';
  fn: TAggFn;
  bucket_ms: number;
  format: 'csv' | 'zip';
}

/** The modal; `onCreated` is told of the job made. */
export function ExportModal({
  open,
  preset,
  onClose,
  onCreated,
}: {
  open: boolean;
  preset?: TExportPreset;
  onClose: () => void;
  onCreated: (job: TDownloadJob) => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<TValues>();
  const create = useCreateDownloadJob();
  const tangramIds = Form.useWatch('tangram_ids', form) ?? preset?.tangramIds ?? [];
  const mode = Form.useWatch('mode', form) ?? preset?.mode ?? 'raw';
  const keys = useDeviceKeys(tangramIds);
  const now = Date.now();
  const initial: TValues = {
    tangram_ids: preset?.tangramIds ?? [],
    keys: preset?.keys ?? [],
    range: preset?.range ? [dayjs(preset.range[0]), dayjs(preset.range[1])] : [dayjs().subtract(1, 'day'), dayjs()],
    mode: preset?.mode ?? 'raw',
    fn: preset?.fn ?? 'avg',
    bucket_ms: 3_600_000,
    format: 'csv',
  };

  const submit = (v: TValues) => {
    const [start, end] = clampRange(v.range[0].valueOf(), v.range[1].valueOf());
    const body: TDownloadJobCreate = {
      name: v.name?.trim() || undefined,
      tangram_ids: v.tangram_ids,
      keys: v.keys,
      start_ts: start,
      end_ts: end,
      mode: v.mode,
      fn: v.fn,
      bucket_ms: v.bucket_ms,
      format: v.format,
    };
    create.mutate(body, {
      onSuccess: (job) => {
        form.resetFields();
        onCreated(job);
      },
      onError: (e) => form.setFields([{ name: 'tangram_ids', errors: [e.message] }]),
    });
  };

  return (
    <Modal
      open={open}
      title={t('downloads.new')}
      okText={t('downloads.create')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      okButtonProps={{ 'data-testid': 'export-submit' }}
      destroyOnHidden
      width={640}
    >
      <Form<TValues> form={form} layout="vertical" initialValues={initial} onFinish={submit} preserve={false} data-testid="export-form">
        <Form.Item name="name" label={t('downloads.name')} rules={[{ max: 64 }]}>
          <Input placeholder={t('downloads.namePlaceholder')} data-testid="export-name" />
        </Form.Item>
        <Form.Item
          name="tangram_ids"
          label={t('downloads.devices')}
          extra={t('downloads.devicesMax', { max: DOWNLOAD_MAX_DEVICES })}
          rules={[{ required: true, type: 'array', min: 1, message: t('downloads.devicesRequired') }]}
        >
          <DevicePicker max={DOWNLOAD_MAX_DEVICES} testId="export-devices" />
        </Form.Item>
        <Form.Item name="keys" label={t('downloads.keys')} extra={t('downloads.keysAll')}>
          <Select
            mode="multiple"
            allowClear
            loading={keys.loading}
            options={keys.keys.map((k) => ({ value: k.key, label: k.unit ? `${k.name} (${k.unit})` : k.name }))}
            placeholder={t('downloads.keysPlaceholder')}
            data-testid="export-keys"
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('downloads.range')}
          extra={t('downloads.rangeMax', { days: HISTORY_RANGE_MAX_DAYS })}
          rules={[{ required: true }]}
        >
          <DatePicker.RangePicker
            showTime
            allowClear={false}
            presets={RANGE_PRESETS.map((p) => ({
              label: t(`devices.history.preset.${p.key}`),
              value: () => [dayjs().subtract(p.ms, 'ms'), dayjs()] as [Dayjs, Dayjs],
            }))}
            disabledDate={(day, info) => isDayDisabled(day.startOf('day').valueOf(), info?.from?.valueOf(), now)}
            data-testid="export-range"
          />
        </Form.Item>
        <Form.Item name="mode" label={t('downloads.mode')}>
          <Radio.Group
            options={[
              { value: 'raw', label: t('downloads.modes.raw') },
              { value: 'bucketed', label: t('downloads.modes.bucketed') },
            ]}
            data-testid="export-mode"
          />
        </Form.Item>
        {mode === 'bucketed' && (
          <Space wrap>
            <Form.Item name="fn" label={t('downloads.fn')}>
              <Select
                style={{ width: 140 }}
                options={AGG_FNS.map((fn) => ({ value: fn, label: t(`downloads.fns.${fn}`) }))}
                data-testid="export-fn"
              />
            </Form.Item>
            <Form.Item name="bucket_ms" label={t('downloads.bucket')}>
              <Select
                style={{ width: 160 }}
                options={DOWNLOAD_BUCKETS_MS.map((b) => ({ value: b, label: formatDuration(b, i18n.language) }))}
                data-testid="export-bucket"
              />
            </Form.Item>
          </Space>
        )}
        <Form.Item name="format" label={t('downloads.format')}>
          <Radio.Group
            options={[
              { value: 'csv', label: t('downloads.formats.csv') },
              { value: 'zip', label: t('downloads.formats.zip') },
            ]}
            data-testid="export-format"
          />
        </Form.Item>
        <Typography.Text type="secondary">{t('downloads.background')}</Typography.Text>
      </Form>
    </Modal>
  );
}

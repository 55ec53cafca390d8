/**
 * The sensors table of the configure tab: address, periods (shown in seconds, §9; stored in ms), batch and
 * activation edited in place, saved together (PUT v2), then synced to the devices (POST sync).
 */
import { PlusOutlined } from '@ant-design/icons';
import { type TSensor, type TSensorUpdate, ZSensorUpdate } from '@tessera/contracts';
import { App, Button, Card, Empty, Flex, InputNumber, Popconfirm, Space, Switch, Table, Tag, Tooltip } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../lib/useIsPhone';
import { AddSensorModal } from './AddSensorModal';
import { useDeleteSensor, useSaveSensors, useSensors, useSync } from './api';
import { SensorDisplayModal } from './SensorDisplayModal';

type TNumField = 'address' | 'save_period' | 'update_period' | 'upload_period' | 'batch';
const PERIODS: readonly TNumField[] = ['save_period', 'update_period', 'upload_period'];

/** The sensors card of project `projectId`; reports unsaved edits through `onDirty`. */
export function SensorsCard({ projectId, onDirty }: { projectId: number; onDirty: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isPhone = useIsPhone();
  const sensors = useSensors(projectId);
  const save = useSaveSensors(projectId);
  const sync = useSync(projectId);
  const remove = useDeleteSensor(projectId);
  const [draft, setDraft] = useState<Record<number, TSensorUpdate>>({});
  const [adding, setAdding] = useState(false);
  const [display, setDisplay] = useState<TSensor | null>(null);
  const dirty = Object.keys(draft).length > 0;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const rows = useMemo(() => (sensors.data?.data ?? []).map((s) => ({ ...s, ...draft[s.id] })), [sensors.data, draft]);
  const errors = useMemo(() => {
    const out: Record<number, Set<string>> = {};
    for (const [id, d] of Object.entries(draft)) {
      const r = ZSensorUpdate.safeParse(d);
      if (!r.success) out[Number(id)] = new Set(r.error.issues.map((i) => String(i.path[0])));
    }
    return out;
  }, [draft]);
  const edit = (id: number, patch: TSensorUpdate) => setDraft((d) => ({ ...d, [id]: { ...d[id], ...patch } }));

  const onSave = async () => {
    const list = Object.entries(draft).map(([id, d]) => ({ id: Number(id), ...d }));
    const res = await save.mutateAsync({ sensors: list }).catch(() => null);
    if (!res) return void message.error(t('sensors.saveFailed'));
    setDraft({});
    if (res.disabled_excess.length) message.warning(t('sensors.overLimit', { keys: res.disabled_excess.join(', ') }));
    else message.success(t('sensors.saved'));
  };
  const onSync = async () => {
    const res = await sync.mutateAsync().catch(() => null);
    if (res) message.success(t('sensors.synced', { count: res.devices }));
    else message.error(t('sensors.syncFailed'));
  };

  const numberCell = (field: TNumField, max: number, title: string) => (v: number, s: TSensor) => {
    const seconds = PERIODS.includes(field);
    return (
      <InputNumber
        size="small"
        aria-label={t('sensors.cellLabel', { field: title, key: s.key })}
        min={0}
        max={max}
        value={seconds ? v / 1000 : v}
        status={errors[s.id]?.has(field) ? 'error' : undefined}
        onChange={(n) => edit(s.id, { [field]: seconds ? Math.round(Number(n ?? 0) * 1000) : Number(n ?? 0) })}
        data-testid={`sensor-${s.key}-${field}`}
      />
    );
  };

  // At phone width the actions go under the title, where they can wrap, instead of beside it.
  const actions = (
    <Space wrap>
      {sensors.data && (
        <Tooltip title={t('sensors.limitHelp')}>
          <Tag data-testid="telemetry-used">
            {t('sensors.limit', { used: sensors.data.telemetry_used, limit: sensors.data.telemetry_limit })}
          </Tag>
        </Tooltip>
      )}
      <Button icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="sensor-add">
        {t('sensors.addSensor')}
      </Button>
      <Button
        type="primary"
        disabled={!dirty || Object.keys(errors).length > 0}
        loading={save.isPending}
        onClick={onSave}
        data-testid="sensors-save"
      >
        {t('common.save')}
      </Button>
      <Popconfirm title={t('sensors.syncConfirm')} onConfirm={onSync} okButtonProps={{ 'data-testid': 'sync-confirm' }}>
        <Button disabled={dirty} loading={sync.isPending} data-testid="sensors-sync">
          {t('sensors.sync')}
        </Button>
      </Popconfirm>
    </Space>
  );
  return (
    <Card size="small" title={t('sensors.sensors')} extra={!isPhone && actions}>
      {isPhone && <Flex style={{ marginBottom: 8 }}>{actions}</Flex>}
      {Object.keys(errors).length > 0 && (
        <Flex style={{ marginBottom: 8, color: '#cf1322' }} data-testid="sensor-errors">
          {t('sensors.rowErrors')}
        </Flex>
      )}
      <Table<TSensor>
        rowKey="id"
        size="small"
        loading={sensors.isFetching}
        dataSource={rows}
        pagination={false}
        scroll={{ x: true }}
        onRow={(s) => ({ 'data-testid': `sensor-row-${s.key}` }) as object}
        locale={{ emptyText: <Empty description={t('sensors.noSensors')} /> }}
        columns={[
          { title: t('sensors.key'), dataIndex: 'key' },
          { title: t('common.name'), dataIndex: 'name' },
          { title: t('sensors.unit'), dataIndex: 'unit' },
          {
            title: t('sensors.valueType'),
            dataIndex: 'value_type',
            render: (type: TSensor['value_type']) => <span data-testid="sensor-value-type">{t(`sensors.valueTypes.${type}`)}</span>,
          },
          { title: t('sensors.address'), dataIndex: 'address', render: numberCell('address', 255, t('sensors.address')) },
          {
            title: t('sensors.uploadPeriod'),
            dataIndex: 'upload_period',
            render: numberCell('upload_period', 86_400, t('sensors.uploadPeriod')),
          },
          { title: t('sensors.savePeriod'), dataIndex: 'save_period', render: numberCell('save_period', 86_400, t('sensors.savePeriod')) },
          {
            title: t('sensors.updatePeriod'),
            dataIndex: 'update_period',
            render: numberCell('update_period', 86_400, t('sensors.updatePeriod')),
          },
          { title: t('sensors.batch'), dataIndex: 'batch', render: numberCell('batch', 100_000, t('sensors.batch')) },
          {
            title: t('sensors.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, s) => (
              <Switch
                size="small"
                checked={on}
                onChange={(v) => edit(s.id, { enabled: v })}
                aria-label={t('sensors.cellLabel', { field: t('sensors.enabled'), key: s.key })}
                data-testid={`sensor-${s.key}-enabled`}
              />
            ),
          },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, s) => (
              <Space>
                <Button size="small" onClick={() => setDisplay(s)} data-testid={`sensor-${s.key}-display`}>
                  {t('sensors.display')}
                </Button>
                <Popconfirm title={t('sensors.deleteConfirm', { key: s.key })} onConfirm={() => remove.mutate(s.id)}>
                  <Button size="small" danger data-testid={`sensor-${s.key}-delete`}>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <AddSensorModal projectId={projectId} open={adding} onClose={() => setAdding(false)} />
      <SensorDisplayModal sensor={display} onClose={() => setDisplay(null)} />
    </Card>
  );
}

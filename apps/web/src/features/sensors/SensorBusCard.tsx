/** The project's sensor bus (spec §3): interface SPI/UART/I2C/I2S and port, saved with PUT sensorBus. */
import { SENSOR_IFACES, SENSOR_PORT_MAX, type TSensorBus } from '@tessera/contracts';
import { App, Button, Card, InputNumber, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePutSensorBus, useSensorBus } from './api';

/** The sensor-bus card of project `projectId`; reports unsaved edits through `onDirty`. */
export function SensorBusCard({ projectId, onDirty }: { projectId: number; onDirty: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const bus = useSensorBus(projectId);
  const put = usePutSensorBus(projectId);
  const [draft, setDraft] = useState<TSensorBus | null>(null);
  useEffect(() => {
    if (bus.data && !draft) setDraft(bus.data);
  }, [bus.data, draft]);
  const dirty = Boolean(draft && bus.data && (draft.iface !== bus.data.iface || draft.port !== bus.data.port));
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const save = () =>
    draft &&
    put.mutate(draft, {
      onSuccess: () => message.success(t('sensors.saved')),
      onError: (e) => void message.error(`${t('sensors.saveFailed')}: ${e.message}`),
    });
  return (
    <Card size="small" title={t('sensors.bus')} loading={bus.isLoading}>
      {draft && (
        <Space wrap>
          <Select<TSensorBus['iface']>
            value={draft.iface}
            aria-label={t('sensors.iface')}
            style={{ width: 120 }}
            options={SENSOR_IFACES.map((v) => ({ value: v, label: v }))}
            onChange={(iface) => setDraft({ ...draft, iface })}
            data-testid="bus-iface"
          />
          <InputNumber
            addonBefore={t('sensors.port')}
            aria-label={t('sensors.port')}
            min={0}
            max={SENSOR_PORT_MAX}
            value={draft.port}
            onChange={(p) => setDraft({ ...draft, port: Number(p ?? 0) })}
            data-testid="bus-port"
          />
          <Button type="primary" disabled={!dirty} loading={put.isPending} onClick={save} data-testid="bus-save">
            {t('common.save')}
          </Button>
        </Space>
      )}
    </Card>
  );
}

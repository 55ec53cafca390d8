/**
 * /project/detail/{id}/configure (spec §2): sensor bus, sensors (with sync), the keys offered for declaration
 * (docs/decisions/telemetry.md "Undeclared keys") and the device status definition.
 * One unsaved-changes prompt for the whole tab (react-router allows one blocker), fed by each card.
 */
import { Flex } from 'antd';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { SensorBusCard } from './SensorBusCard';
import { SensorsCard } from './SensorsCard';
import { StatusCard } from './StatusCard';
import { UndeclaredKeysCard } from './UndeclaredKeysCard';

type TCard = 'bus' | 'sensors' | 'status';

/** The configure tab. */
export default function ConfigureTab() {
  const projectId = Number(useParams().id);
  const [dirty, setDirty] = useState<Record<TCard, boolean>>({ bus: false, sensors: false, status: false });
  const report = useCallback((card: TCard, d: boolean) => setDirty((s) => (s[card] === d ? s : { ...s, [card]: d })), []);
  const onBus = useCallback((d: boolean) => report('bus', d), [report]);
  const onSensors = useCallback((d: boolean) => report('sensors', d), [report]);
  const onStatus = useCallback((d: boolean) => report('status', d), [report]);
  useUnsavedChangesPrompt(dirty.bus || dirty.sensors || dirty.status);
  return (
    <Flex vertical gap={16} data-testid="configure-tab">
      <SensorBusCard projectId={projectId} onDirty={onBus} />
      <SensorsCard projectId={projectId} onDirty={onSensors} />
      <UndeclaredKeysCard projectId={projectId} />
      <StatusCard projectId={projectId} onDirty={onStatus} />
    </Flex>
  );
}

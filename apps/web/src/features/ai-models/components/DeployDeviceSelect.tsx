/**
 * Picks the devices to deploy to: a multi-select of the tenant's devices searching name, nickname or Tangram ID on
 * the server, 50 at a time, at most MAX_ROLLOUT_DEVICES, by device id (the rollout's body names devices by id, where
 * the shared DevicePicker answers Tangram IDs). Chosen devices keep their labels while other results show.
 */
import { MAX_ROLLOUT_DEVICES } from '@tessera/contracts';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchText } from '../../../components/useSearchText';
import { useDevices } from '../../devices/api';
import { deviceLabel } from '../../devices/components/DevicePicker';

interface TProps {
  value?: number[];
  onChange?: (deviceIds: number[]) => void;
  id?: string;
}

/** The select (a controlled antd form field; `id` is the form item's, for its label). */
export function DeployDeviceSelect({ value, onChange, id }: TProps) {
  const { t } = useTranslation();
  const { typed, setTyped, q } = useSearchText();
  const [known, setKnown] = useState(() => new Map<number, string>());
  const results = useDevices({ page: 1, limit: 50, q });
  const found = results.data?.data;
  useEffect(() => {
    if (found?.length) setKnown((m) => new Map([...m, ...found.map((d) => [d.id, deviceLabel(d)] as const)]));
  }, [found]);
  const chosen = value ?? [];
  const full = chosen.length >= MAX_ROLLOUT_DEVICES;
  const options = useMemo(() => {
    const listed = found ?? [];
    const ids = new Set(listed.map((d) => d.id));
    const others = chosen.filter((d) => !ids.has(d)).map((d) => ({ value: d, label: known.get(d) ?? `#${d}` }));
    return [...listed.map((d) => ({ value: d.id, label: deviceLabel(d), disabled: full && !chosen.includes(d.id) })), ...others];
  }, [found, known, chosen, full]);
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      showSearch={{ filterOption: false, searchValue: typed, onSearch: setTyped }}
      onBlur={() => setTyped('')}
      value={chosen}
      onChange={(next) => onChange?.(next.slice(0, MAX_ROLLOUT_DEVICES))}
      options={options}
      loading={results.isFetching}
      placeholder={t('aiModels.deploy.devicesPlaceholder')}
      notFoundContent={t('aiModels.deploy.noDeviceFound')}
      data-testid="deploy-devices"
    />
  );
}

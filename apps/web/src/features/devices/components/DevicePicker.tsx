/**
 * Picks devices the viewer may see (the server's device list: the tenant's devices for a vendor, the authorised ones
 * for a user), by Tangram ID: a multi-select searching name, nickname or Tangram ID on the server, 50 at a time, at
 * most `max` chosen (the limit is said when reached). Chosen devices keep their labels while other results show.
 * Used by every page that picks devices to read (analytics, exports, widgets, platform telemetry).
 */
import { Select } from 'antd';
import { type CSSProperties, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchText } from '../../../components/useSearchText';
import { useDevices } from '../api';

interface TProps {
  value?: string[];
  onChange?: (tangramIds: string[]) => void;
  /** At most this many devices. */
  max: number;
  testId?: string;
  placeholder?: string;
  /** Style of the select (its width, most often). */
  style?: CSSProperties;
  /** Told the labels ({@link deviceLabel}) of every device the picker has listed, by Tangram ID, as they become known. */
  onLabels?: (labels: ReadonlyMap<string, string>) => void;
}

/** A device's label in pickers: its name and the last 12 digits of its Tangram ID. */
export const deviceLabel = (d: { name: string; tangram_id: string }) => `${d.name} · ${d.tangram_id.slice(-12)}`;

/** The select (a controlled antd form field). */
export function DevicePicker({ value, onChange, max, testId = 'device-picker', placeholder, onLabels, style }: TProps) {
  const { t } = useTranslation();
  const { typed, setTyped, q } = useSearchText();
  const [known, setKnown] = useState(() => new Map<string, string>());
  const results = useDevices({ page: 1, limit: 50, q });
  const found = results.data?.data;
  useEffect(() => {
    if (found?.length) setKnown((m) => new Map([...m, ...found.map((d) => [d.tangram_id, deviceLabel(d)] as const)]));
  }, [found]);
  const labelsRef = useRef(onLabels);
  labelsRef.current = onLabels;
  useEffect(() => labelsRef.current?.(known), [known]);
  const chosen = value ?? [];
  const full = chosen.length >= max;
  const options = useMemo(() => {
    const listed = found ?? [];
    const ids = new Set(listed.map((d) => d.tangram_id));
    const others = chosen.filter((id) => !ids.has(id)).map((id) => ({ value: id, label: known.get(id) ?? id }));
    return [
      ...listed.map((d) => ({ value: d.tangram_id, label: deviceLabel(d), disabled: full && !chosen.includes(d.tangram_id) })),
      ...others,
    ];
  }, [found, known, chosen, full]);
  return (
    <Select<string[]>
      mode="multiple"
      showSearch
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      onBlur={() => setTyped('')}
      value={chosen}
      onChange={(next) => onChange?.(next.slice(0, max))}
      options={options}
      loading={results.isFetching}
      placeholder={placeholder ?? t('devices.picker.placeholder')}
      notFoundContent={t('devices.picker.none')}
      optionFilterProp="label"
      data-testid={testId}
      style={style}
      popupRender={(menu) => (
        <>
          {full && (
            <div style={{ padding: '4px 12px', color: 'var(--ant-color-warning)' }} data-testid={`${testId}-full`}>
              {t('devices.picker.max', { max })}
            </div>
          )}
          {menu}
        </>
      )}
    />
  );
}

/**
 * Picks devices the viewer may see (the server's device list: the tenant's devices for a vendor, the authorised ones
 * for a user), by Tangram ID (or by device id with `valueKey="id"`): a multi-select searching name, nickname or
 * Tangram ID on the server, 50 at a time, at most `max` chosen (the limit is said when reached). Chosen devices keep
 * their labels while other results show. Used by every page that picks devices (analytics, exports, widgets, platform
 * telemetry, model rollouts).
 */
import { Select } from 'antd';
import { type CSSProperties, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchText } from '../../../components/useSearchText';
import { useDevices } from '../api';

/** What a picked device is known by: its Tangram ID (the default) or its numeric id. */
type TDeviceKey = 'tangram_id' | 'id';
type TKeyValue<K extends TDeviceKey> = K extends 'id' ? number : string;

interface TProps<K extends TDeviceKey> {
  /** The field the value holds (default `tangram_id`). */
  valueKey?: K;
  value?: TKeyValue<K>[];
  onChange?: (devices: TKeyValue<K>[]) => void;
  /** The form item's id, for its label. */
  id?: string;
  /** Its name for screen readers when no label names it by `id`. */
  ariaLabel?: string;
  /** At most this many devices. */
  max: number;
  testId?: string;
  placeholder?: string;
  /** Style of the select (its width, most often). */
  style?: CSSProperties;
  /** Told the labels ({@link deviceLabel}) of every device the picker has listed, by value, as they become known. */
  onLabels?: (labels: ReadonlyMap<TKeyValue<K>, string>) => void;
}

/** A device's label in pickers: its name and the last 12 digits of its Tangram ID. */
export const deviceLabel = (d: { name: string; tangram_id: string }) => `${d.name} · ${d.tangram_id.slice(-12)}`;

/** The select (a controlled antd form field). */
export function DevicePicker<K extends TDeviceKey = 'tangram_id'>({
  valueKey,
  value,
  onChange,
  id,
  ariaLabel,
  max,
  testId = 'device-picker',
  placeholder,
  onLabels,
  style,
}: TProps<K>) {
  const { t } = useTranslation();
  const { typed, setTyped, q } = useSearchText();
  const [known, setKnown] = useState(() => new Map<TKeyValue<K>, string>());
  const results = useDevices({ page: 1, limit: 50, q });
  const found = results.data?.data;
  const keyOf = useCallback((d: { id: number; tangram_id: string }) => d[valueKey ?? 'tangram_id'] as TKeyValue<K>, [valueKey]);
  useEffect(() => {
    if (found?.length) setKnown((m) => new Map([...m, ...found.map((d) => [keyOf(d), deviceLabel(d)] as const)]));
  }, [found, keyOf]);
  const labelsRef = useRef(onLabels);
  labelsRef.current = onLabels;
  useEffect(() => labelsRef.current?.(known), [known]);
  const chosen = value ?? [];
  const full = chosen.length >= max;
  const options = useMemo(() => {
    const listed = found ?? [];
    const keys = new Set(listed.map(keyOf));
    const others = chosen.filter((k) => !keys.has(k)).map((k) => ({ value: k, label: known.get(k) ?? String(k) }));
    return [...listed.map((d) => ({ value: keyOf(d), label: deviceLabel(d), disabled: full && !chosen.includes(keyOf(d)) })), ...others];
  }, [found, known, chosen, full, keyOf]);
  return (
    <Select<TKeyValue<K>[]>
      id={id}
      aria-label={ariaLabel}
      mode="multiple"
      showSearch
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      onBlur={() => setTyped('')}
      // A pick clears the search (antd leaves a controlled search text as it is): the next search starts afresh.
      onSelect={() => setTyped('')}
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

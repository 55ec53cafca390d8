/**
 * Picks devices of the project for a role: a multi-select searching the project's devices on the server (name,
 * nickname or Tangram ID, 50 at a time). Devices already chosen keep their labels while other results show.
 */
import type { TDevice, TProjectRole } from '@tessera/contracts';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchText } from '../../components/useSearchText';
import { useProjectDevices } from '../projects/api';

interface TProps {
  projectId: number;
  /** The devices the role had when the form opened (labels for ids not in the current results). */
  initial: TProjectRole['devices'];
  value?: number[];
  onChange?: (ids: number[]) => void;
}

const label = (d: { name: string; tangram_id: string }) => `${d.name} · ${d.tangram_id.slice(-12)}`;

/** The select (a controlled antd form field). */
export function RoleDeviceSelect({ projectId, initial, value, onChange }: TProps) {
  const { t } = useTranslation();
  const { typed, setTyped, q } = useSearchText();
  const [known, setKnown] = useState(() => new Map(initial.map((d) => [d.id, label(d)])));
  const results = useProjectDevices(projectId, { page: 1, limit: 50, q });
  const found: TDevice[] = results.data?.data ?? [];
  useEffect(() => {
    if (found.length) setKnown((m) => new Map([...m, ...found.map((d) => [d.id, label(d)] as const)]));
  }, [found]);
  const options = useMemo(() => {
    const ids = new Set(found.map((d) => d.id));
    const chosen = (value ?? []).filter((id) => !ids.has(id)).map((id) => ({ value: id, label: known.get(id) ?? `#${id}` }));
    return [...found.map((d) => ({ value: d.id, label: label(d) })), ...chosen];
  }, [found, known, value]);
  return (
    <Select<number[]>
      mode="multiple"
      showSearch
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      onBlur={() => setTyped('')}
      // A pick clears the search (antd leaves a controlled search text as it is): the next search starts afresh.
      onSelect={() => setTyped('')}
      value={value}
      onChange={onChange}
      options={options}
      loading={results.isFetching}
      placeholder={t('projectRoles.devicesPlaceholder')}
      notFoundContent={t('projectRoles.noDevices')}
      optionFilterProp="label"
      data-testid="role-devices"
    />
  );
}

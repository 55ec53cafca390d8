/**
 * Picks the tenant's machines for a machine role: a multi-select searching the machine instances on the server (name,
 * 50 at a time). Machines already chosen keep their labels while other results show.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { machinePaths, type TMachineInstanceList, type TProjectRole } from '@tessera/contracts';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchText } from '../../components/useSearchText';
import { http } from '../../lib/http';
import { roleKeys } from './api';

interface TProps {
  /** The machines the role had when the form opened (labels for ids not in the current results). */
  initial: TProjectRole['machines'];
  value?: number[];
  onChange?: (ids: number[]) => void;
}

/** The select (a controlled antd form field). */
export function RoleMachineSelect({ initial, value, onChange }: TProps) {
  const { t } = useTranslation();
  const { typed, setTyped, q } = useSearchText();
  const results = useQuery({
    queryKey: roleKeys.machineOptions(q),
    queryFn: () => http.get<TMachineInstanceList>(machinePaths.instances, { page: 1, limit: 50, q }),
    placeholderData: keepPreviousData,
  });
  const options = useMemo(() => {
    const found = (results.data?.data ?? []).map((m) => ({ value: m.id, label: m.name }));
    const ids = new Set(found.map((o) => o.value));
    const names = new Map(initial.map((m) => [m.id, m.name]));
    const chosen = (value ?? []).filter((id) => !ids.has(id)).map((id) => ({ value: id, label: names.get(id) ?? `#${id}` }));
    return [...found, ...chosen];
  }, [results.data, initial, value]);
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
      placeholder={t('projectRoles.machinesPlaceholder')}
      notFoundContent={t('projectRoles.noMachines')}
      data-testid="role-machines"
    />
  );
}

/**
 * The audit log's filters beside its search box (components/ListPage): period, entity type, action, actor e-mail and
 * (the platform admin) tenant. Each change is handed up as the query parameters to set; empty means any.
 */
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, type TAuditQuery } from '@tessera/contracts';
import { DatePicker, Input, InputNumber, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { auditLabel } from './auditColumns';

/** Props: the filters in use, whether the tenant filter shows, and the change handler. */
export interface TAuditFiltersProps {
  value: Omit<TAuditQuery, 'page' | 'limit' | 'q'>;
  showTenant: boolean;
  onChange: (next: Record<string, string | number | undefined>) => void;
}

/** The filter bar. */
export function AuditFilters({ value, showTenant, onChange }: TAuditFiltersProps) {
  const { t } = useTranslation();
  return (
    <>
      <DatePicker.RangePicker
        data-testid="audit-filter-range"
        showTime
        value={value.from !== undefined && value.to !== undefined ? [dayjs(value.from), dayjs(value.to)] : null}
        onChange={(v) => onChange({ from: v?.[0]?.valueOf(), to: v?.[1]?.valueOf() })}
      />
      <Select
        data-testid="audit-filter-entity"
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={t('auditLog.allEntities')}
        aria-label={t('auditLog.allEntities')}
        value={value.entity_type}
        options={AUDIT_ENTITY_TYPES.map((e) => ({ value: e, label: auditLabel(t, 'entity', e) }))}
        onChange={(v?: string) => onChange({ entity_type: v })}
        style={{ width: 200 }}
      />
      <Select
        data-testid="audit-filter-action"
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={t('auditLog.allActions')}
        aria-label={t('auditLog.allActions')}
        value={value.action}
        options={AUDIT_ACTIONS.map((a) => ({ value: a, label: auditLabel(t, 'action', a) }))}
        onChange={(v?: string) => onChange({ action: v })}
        style={{ width: 180 }}
      />
      <Input.Search
        data-testid="audit-filter-actor"
        allowClear
        defaultValue={value.actor}
        placeholder={t('auditLog.actorPlaceholder')}
        onSearch={(v) => onChange({ actor: v.trim() || undefined })}
        style={{ width: 220 }}
      />
      {showTenant && (
        <InputNumber
          data-testid="audit-filter-tenant"
          min={1}
          precision={0}
          placeholder={t('auditLog.tenantPlaceholder')}
          value={value.tenant_id}
          onChange={(v) => onChange({ tenant_id: v ?? undefined })}
          style={{ width: 140 }}
        />
      )}
    </>
  );
}

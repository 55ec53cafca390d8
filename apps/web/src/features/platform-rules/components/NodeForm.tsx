/**
 * The side panel form of the selected node: one control per field of its type (model/nodes.ts NODE_FIELDS), edits
 * written straight into the node's data; the contract's schema for the node type is checked as you type and its
 * first problem shown under the form, in words (model/fieldIssue.ts), not the validator's (the server's apply checks
 * the whole graph).
 */
import { type TFlowNodeType, ZFlowNodeData } from '@tessera/contracts';
import { Alert, DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../../lib/useSession';
import { usePlatformTelemetryList } from '../../platform-telemetry/api';
import { fieldIssueText } from '../model/fieldIssue';
import { ScopeIdsSelect } from './ScopeIdsSelect';
import { fieldApplies, getAt, NODE_FIELDS, setAt, type TNodeField } from '../model/nodes';

/** A zod issue of the node's data as a person would say it: the field's label and what is wrong with it. */
function issueText(t: TFunction, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return '';
  const path = issue.path.map(String).join('_');
  const detail = fieldIssueText(t, {
    issue: issue.code,
    message: issue.message,
    minimum: 'minimum' in issue ? Number(issue.minimum) : undefined,
    maximum: 'maximum' in issue ? Number(issue.maximum) : undefined,
    origin: 'origin' in issue ? String(issue.origin) : undefined,
  });
  return path ? t('platformRules.fieldProblem', { field: t(`platformRules.fields.${path}`, { defaultValue: path }), detail }) : detail;
}

/** The control of one field; `scopeKind` is the kind of the scope an `ids` field belongs to (projects or products). */
function Control({
  field,
  value,
  onChange,
  scopeKind,
}: {
  field: TNodeField;
  value: unknown;
  onChange: (v: unknown) => void;
  scopeKind?: unknown;
}) {
  const { t } = useTranslation();
  const testId = `node-field-${field.path.join('-')}`;
  if (field.kind === 'ids' && (scopeKind === 'projects' || scopeKind === 'products'))
    return <ScopeIdsSelect kind={scopeKind} value={((value as unknown[]) ?? []).map(Number)} onChange={onChange} testId={testId} />;
  switch (field.kind) {
    case 'number':
      return (
        <InputNumber
          min={field.min}
          max={field.max}
          value={value as number}
          onChange={(v) => onChange(v ?? undefined)}
          data-testid={testId}
        />
      );
    case 'switch':
      return <Switch checked={value === true} onChange={onChange} data-testid={testId} />;
    case 'select':
      return (
        <Select
          value={value as string}
          onChange={onChange}
          data-testid={testId}
          options={field.options.map((o) => ({ value: o, label: field.i18n ? t(`${field.i18n}.${o}`) : o }))}
        />
      );
    case 'tags':
    case 'ids':
      return (
        <Select
          mode="tags"
          value={((value as unknown[]) ?? []).map(String)}
          onChange={(list: string[]) =>
            onChange(field.kind === 'ids' ? list.map(Number).filter((n) => Number.isInteger(n) && n > 0) : list)
          }
          tokenSeparators={[',', ' ']}
          open={false}
          data-testid={testId}
        />
      );
    case 'datetime':
      return (
        <DatePicker
          showTime
          value={typeof value === 'number' ? dayjs(value) : null}
          onChange={(d) => onChange(d ? d.valueOf() : undefined)}
          data-testid={testId}
        />
      );
    case 'platformTelemetry':
      return <PlatformTelemetrySelect value={value as number | null} onChange={onChange} testId={testId} />;
    case 'expression':
    case 'template':
      return (
        <Input.TextArea
          autoSize={{ minRows: 1, maxRows: 4 }}
          value={(value as string) ?? ''}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
      );
    default:
      return <Input value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value)} data-testid={testId} />;
  }
}

/** One of the tenant's platform telemetries, by name (docs/platform-telemetry.md). */
function PlatformTelemetrySelect({ value, onChange, testId }: { value: number | null; onChange: (v: unknown) => void; testId: string }) {
  const { t } = useTranslation();
  // Users (read-only viewers of platform rules) have no platform telemetry to list: they see the id.
  const isVendor = useSession().level !== 'user';
  const list = usePlatformTelemetryList({ page: 1, limit: 100 }, isVendor);
  return (
    <Select
      value={value ?? undefined}
      onChange={onChange}
      showSearch
      optionFilterProp="label"
      loading={list.isLoading}
      notFoundContent={t('platformRules.noPlatformTelemetry')}
      options={
        isVendor
          ? (list.data?.data ?? []).map((pt) => ({ value: pt.id, label: pt.unit ? `${pt.name} (${pt.unit})` : pt.name }))
          : value
            ? [{ value, label: `#${value}` }]
            : []
      }
      data-testid={testId}
    />
  );
}

/** The form of node `kind` over `data`; `onChange` gets the whole new data. */
export function NodeForm({
  kind,
  data,
  onChange,
}: {
  kind: TFlowNodeType;
  data: Record<string, unknown>;
  onChange: (data: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const check = ZFlowNodeData[kind].safeParse(data);
  return (
    <Form layout="vertical" size="small" data-testid="node-form">
      {NODE_FIELDS[kind]
        .filter((f) => fieldApplies(kind, f, data))
        .map((f) => (
          <Form.Item
            key={f.path.join('.')}
            label={t(`platformRules.fields.${f.path.join('_')}`)}
            help={
              f.kind === 'expression' && kind === 'condition' ? (
                <span data-testid="condition-help">
                  {t('platformRules.expressionHelp')}
                  <br />
                  {t('platformRules.valueTestsHelp')}
                </span>
              ) : f.kind === 'expression' ? (
                t('platformRules.expressionHelp')
              ) : f.kind === 'template' ? (
                t('platformRules.templateHelp')
              ) : undefined
            }
          >
            <Control
              field={f}
              value={getAt(data, f.path)}
              onChange={(v) => onChange(setAt(data, f.path, v))}
              scopeKind={f.kind === 'ids' ? getAt(data, [...f.path.slice(0, -1), 'kind']) : undefined}
            />
          </Form.Item>
        ))}
      {!check.success && <Alert type="warning" showIcon data-testid="node-form-problem" message={issueText(t, check.error.issues[0])} />}
    </Form>
  );
}

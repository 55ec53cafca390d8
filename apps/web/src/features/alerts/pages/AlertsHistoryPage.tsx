/**
 * alerts/history (spec §2; §5 "History range at most 31 or 90 days"): filters by level, state, rule kind, project, product,
 * device and period (at most ALERT_RANGE_MAX_DAYS, default the last 7 days) kept in the URL; a paged table, newest
 * first, with the detail drawer; CSV export of the filtered history through the HTTP client (bearer token).
 */
import { DownloadOutlined } from '@ant-design/icons';
import {
  ALERT_LEVELS,
  ALERT_RANGE_MAX_DAYS,
  ALERT_RULE_KINDS,
  ALERT_STATES,
  DEFAULT_PAGE_LIMIT,
  TANGRAM_ID_LENGTH,
  TS_NO_DATA_CODE,
  type TAlert,
  type TAlertFilterQuery,
} from '@tessera/contracts';
import { Alert, App, Button, Card, Empty, Input, Select, Space, Table, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { HttpError } from '../../../lib/http';
import { downloadAlertsCsv, useAlertList, useAlertOptions } from '../api';
import { AlertDrawer } from '../components/AlertDrawer';
import { ALERT_TABLE_WIDTH_PX, alertColumns } from '../components/alertColumns';
import { RangeField } from '../components/RangeField';
import { lastDays, rangeFromParams } from '../model/range';

const DEFAULT_DAYS = 7;
const TANGRAM_ID = new RegExp(`^[0-9A-Fa-f]{${TANGRAM_ID_LENGTH}}$`);
const pick = <T extends string>(values: readonly T[], v: string | null): T | undefined => values.find((x) => x === v);

/** The history page. */
export default function AlertsHistoryPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const [fallback] = useState(() => lastDays(Date.now(), DEFAULT_DAYS));
  const { range, problem } = rangeFromParams(params, fallback);
  const [deviceText, setDeviceText] = useState(params.get('device') ?? '');
  const [openId, setOpenId] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const filters: TAlertFilterQuery = {
    from: range[0],
    to: range[1],
    level: pick(ALERT_LEVELS, params.get('level')),
    state: pick(ALERT_STATES, params.get('state')),
    rule_kind: pick(ALERT_RULE_KINDS, params.get('rule_kind')),
    project_id: Number(params.get('project_id')) || undefined,
    product_id: Number(params.get('product_id')) || undefined,
    device: params.get('device') || undefined,
  };
  const page = Number(params.get('page')) || 1;
  const limit = Number(params.get('limit')) || DEFAULT_PAGE_LIMIT;
  const ok = problem === null;
  const list = useAlertList({ ...filters, page, limit }, ok);
  const projects = useAlertOptions('projects', { from: range[0], to: range[1] }, ok);
  const products = useAlertOptions('products', { from: range[0], to: range[1] }, ok);
  const deviceInvalid = deviceText !== '' && !TANGRAM_ID.test(deviceText.trim());
  const open = list.data?.data.find((a) => a.id === openId) ?? null;

  const update = (next: Record<string, string | number | undefined>) => {
    const merged = new URLSearchParams(params);
    // Any filter change goes back to the first page unless a page is given.
    for (const [k, v] of Object.entries({ page: undefined, ...next })) {
      if (v === undefined || v === '') merged.delete(k);
      else merged.set(k, String(v));
    }
    setParams(merged);
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAlertsCsv(filters);
    } catch (err) {
      if (err instanceof HttpError && err.code === TS_NO_DATA_CODE) void message.warning(t('alerts.history.noData'));
    } finally {
      setExporting(false);
    }
  };
  const option = (id: number, name: string, count: number) => ({ value: id, label: `${name} (${count})` });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('alerts.history.title')}
      </Typography.Title>
      <Space wrap align="start">
        <RangeField
          value={range}
          onChange={(next, clamped) => {
            if (clamped) void message.info(t('alerts.range.clamped', { days: ALERT_RANGE_MAX_DAYS }));
            update({ from: next[0], to: next[1] });
          }}
        />
        <Select
          data-testid="alert-filter-level"
          allowClear
          placeholder={t('alerts.history.allLevels')}
          aria-label={t('alerts.history.allLevels')}
          value={filters.level}
          options={ALERT_LEVELS.map((l) => ({ value: l, label: t(`alerts.level.${l}`) }))}
          onChange={(v?: string) => update({ level: v })}
          style={{ width: 150 }}
        />
        <Select
          data-testid="alert-filter-state"
          allowClear
          placeholder={t('alerts.history.allStates')}
          aria-label={t('alerts.history.allStates')}
          value={filters.state}
          options={ALERT_STATES.map((s) => ({ value: s, label: t(`alerts.state.${s}`) }))}
          onChange={(v?: string) => update({ state: v })}
          style={{ width: 150 }}
        />
        <Select
          data-testid="alert-filter-rule-kind"
          allowClear
          placeholder={t('alerts.history.allRuleKinds')}
          aria-label={t('alerts.history.allRuleKinds')}
          value={filters.rule_kind}
          options={ALERT_RULE_KINDS.map((k) => ({ value: k, label: t(`alerts.ruleKind.${k}`) }))}
          onChange={(v?: string) => update({ rule_kind: v })}
          style={{ width: 150 }}
        />
        <Select
          data-testid="alert-filter-project"
          allowClear
          placeholder={t('alerts.history.allProjects')}
          aria-label={t('alerts.history.allProjects')}
          value={filters.project_id}
          options={(projects.data?.data ?? []).map((p) => option(p.id, p.name, p.count))}
          onChange={(v?: number) => update({ project_id: v })}
          style={{ width: 200 }}
        />
        <Select
          data-testid="alert-filter-product"
          allowClear
          placeholder={t('alerts.history.allProducts')}
          aria-label={t('alerts.history.allProducts')}
          value={filters.product_id}
          options={(products.data?.data ?? []).map((p) => option(p.id, p.name, p.count))}
          onChange={(v?: number) => update({ product_id: v })}
          style={{ width: 200 }}
        />
        <Space direction="vertical" size={2}>
          <Input.Search
            data-testid="alert-filter-device"
            allowClear
            value={deviceText}
            status={deviceInvalid ? 'error' : undefined}
            placeholder={t('alerts.history.device')}
            onChange={(e) => setDeviceText(e.target.value)}
            onSearch={(v) => {
              const id = v.trim();
              if (id === '' || TANGRAM_ID.test(id)) update({ device: id.toUpperCase() });
            }}
            style={{ width: 320 }}
          />
          {deviceInvalid && (
            <Typography.Text type="danger">{t('alerts.history.deviceInvalid', { length: TANGRAM_ID_LENGTH })}</Typography.Text>
          )}
        </Space>
        <Button data-testid="alert-export" icon={<DownloadOutlined />} loading={exporting} disabled={!ok} onClick={() => void exportCsv()}>
          {t('alerts.history.export')}
        </Button>
      </Space>
      {problem && (
        <Alert
          type="error"
          showIcon
          data-testid="alert-range-problem"
          message={t(`alerts.range.${problem === 'order' ? 'order' : 'tooLong'}`, { days: ALERT_RANGE_MAX_DAYS })}
        />
      )}
      <Card size="small">
        <Table<TAlert>
          data-testid="alert-history-table"
          rowKey="id"
          size="middle"
          columns={alertColumns(t)}
          scroll={{ x: ALERT_TABLE_WIDTH_PX }}
          dataSource={ok ? (list.data?.data ?? []) : []}
          loading={ok && list.isFetching}
          locale={{ emptyText: <Empty description={t('alerts.history.empty')} /> }}
          onRow={(a) =>
            ({
              'data-testid': `alert-row-${a.id}`,
              style: { cursor: 'pointer' },
              onClick: () => setOpenId(a.id),
            }) as HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: page,
            pageSize: limit,
            total: list.data?.total_items ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('alerts.history.total', { total }),
            onChange: (p, size) => update({ page: p, limit: size === DEFAULT_PAGE_LIMIT ? undefined : size }),
          }}
        />
      </Card>
      <AlertDrawer alert={open} onClose={() => setOpenId(null)} />
    </Space>
  );
}

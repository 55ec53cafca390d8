/**
 * /audit-log (docs/decisions/audit-log.md): who changed what, when and from where. A vendor sees its tenant's entries,
 * the platform admin every tenant's (with a tenant filter). Filters live in the URL; a paged table, newest first, each
 * row expanding to the changed fields before and after; CSV of everything the filters select.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_LIMIT, type TAuditEntry, type TAuditQuery } from '@tessera/contracts';
import { Button, Card, Empty, Space, Table, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../lib/useSession';
import { downloadAuditCsv, useAuditLog } from '../api';
import { AuditFilters } from '../components/AuditFilters';
import { auditColumns } from '../components/auditColumns';
import { ChangesTable } from '../components/ChangesTable';

const numberParam = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
const textParam = (v: string | null) => v || undefined;

/** The audit log page. */
export default function AuditLogPage() {
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = session.level === 'admin';
  const [params, setParams] = useSearchParams();
  const [exporting, setExporting] = useState(false);
  const filters: Omit<TAuditQuery, 'page' | 'limit'> = {
    from: numberParam(params.get('from')),
    to: numberParam(params.get('to')),
    entity_type: textParam(params.get('entity_type')),
    action: textParam(params.get('action')),
    actor: textParam(params.get('actor')),
    q: textParam(params.get('q')),
    tenant_id: isAdmin ? numberParam(params.get('tenant_id')) : undefined,
  };
  const page = numberParam(params.get('page')) ?? 1;
  const limit = numberParam(params.get('limit')) ?? DEFAULT_PAGE_LIMIT;
  const list = useAuditLog({ ...filters, page, limit });

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
      await downloadAuditCsv(filters);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('auditLog.title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t(isAdmin ? 'auditLog.introAdmin' : 'auditLog.intro')}</Typography.Text>
      <Space wrap align="start" style={{ justifyContent: 'space-between', width: '100%' }}>
        <AuditFilters value={filters} showTenant={isAdmin} onChange={update} />
        <Button data-testid="audit-export" icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
          {t('auditLog.export')}
        </Button>
      </Space>
      <Card size="small">
        <Table<TAuditEntry>
          data-testid="audit-table"
          rowKey="id"
          size="middle"
          columns={auditColumns(t, isAdmin)}
          scroll={{ x: 900 }}
          dataSource={list.data?.data ?? []}
          loading={list.isFetching}
          locale={{ emptyText: <Empty data-testid="audit-empty" description={t('auditLog.empty')} /> }}
          expandable={{
            expandRowByClick: true,
            expandedRowRender: (e) => <ChangesTable entryId={e.id} changes={e.changes} />,
          }}
          onRow={(e) => ({ 'data-testid': `audit-row-${e.id}`, style: { cursor: 'pointer' } }) as HTMLAttributes<HTMLElement>}
          pagination={{
            current: page,
            pageSize: limit,
            total: list.data?.total_items ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('auditLog.total', { total }),
            onChange: (p, size) => update({ page: p, limit: size === DEFAULT_PAGE_LIMIT ? undefined : size }),
          }}
        />
      </Card>
    </Space>
  );
}

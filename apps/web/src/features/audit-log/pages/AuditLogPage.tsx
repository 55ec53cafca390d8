/**
 * /audit-log (docs/decisions/audit-log.md): who changed what, when and from where. A vendor sees its tenant's entries,
 * the platform admin every tenant's (with a tenant filter). A list page (components/ListPage) whose search, filters,
 * page and page size live in the URL; newest first, each row expanding to the changed fields before and after; CSV of
 * everything the filters select.
 */
import { DownloadOutlined } from '@ant-design/icons';
import type { TAuditEntry, TAuditQuery } from '@tessera/contracts';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../../components/ListPage';
import { numberParam, useUrlListQuery } from '../../../components/useUrlListQuery';
import { useSession } from '../../../lib/useSession';
import { downloadAuditCsv, useAuditLog } from '../api';
import { AuditFilters } from '../components/AuditFilters';
import { auditColumns } from '../components/auditColumns';
import { ChangesTable } from '../components/ChangesTable';

const textParam = (v: string | null) => v || undefined;

/** The audit log page. */
export default function AuditLogPage() {
  const { t } = useTranslation();
  const isAdmin = useSession().level === 'admin';
  const list = useUrlListQuery();
  const { params, query } = list;
  const [exporting, setExporting] = useState(false);
  const filters: Omit<TAuditQuery, 'page' | 'limit' | 'q'> = {
    from: numberParam(params.get('from')),
    to: numberParam(params.get('to')),
    entity_type: textParam(params.get('entity_type')),
    action: textParam(params.get('action')),
    actor: textParam(params.get('actor')),
    tenant_id: isAdmin ? numberParam(params.get('tenant_id')) : undefined,
  };
  const entries = useAuditLog({ ...filters, ...query });

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv({ ...filters, q: query.q });
    } finally {
      setExporting(false);
    }
  };

  return (
    <ListPage<TAuditEntry>
      title={t('auditLog.title')}
      extra={
        <Button data-testid="audit-export" icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
          {t('auditLog.export')}
        </Button>
      }
      notice={<Typography.Paragraph type="secondary">{t(isAdmin ? 'auditLog.introAdmin' : 'auditLog.intro')}</Typography.Paragraph>}
      list={list}
      result={entries}
      searchPlaceholder={t('auditLog.searchPlaceholder')}
      searchTestId="audit-filter-text"
      filters={<AuditFilters value={filters} showTenant={isAdmin} onChange={list.update} />}
      rowPrefix="audit"
      tableTestId="audit-table"
      table={{ size: 'middle', scroll: { x: 900 } }}
      columns={auditColumns(t, isAdmin)}
      expandedRowRender={(e) => <ChangesTable entryId={e.id} changes={e.changes} />}
      pageSizeChanger
      totalText={(total) => t('auditLog.total', { total })}
      empty={{
        text: t('auditLog.none'),
        noMatch: t('auditLog.empty'),
        filtered: Object.values(filters).some((v) => v !== undefined),
        testId: 'audit-empty',
      }}
    />
  );
}

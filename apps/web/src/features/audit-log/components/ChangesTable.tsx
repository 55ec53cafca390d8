/**
 * The before/after view of one audit entry: a row per changed field, its value before and after; a masked secret shows
 * as a tag, a missing value as a dash, structured values as formatted JSON.
 */
import { AUDIT_MASK, type TAuditChanges } from '@tessera/contracts';
import { Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Value({ value, testId }: { value: unknown; testId: string }): ReactNode {
  const { t } = useTranslation();
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  if (value === AUDIT_MASK) return <Tag data-testid={testId}>{t('auditLog.masked')}</Tag>;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  return (
    <Typography.Text data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'monospace' }}>
      {text}
    </Typography.Text>
  );
}

/** Props: the entry's changes and its id (for test ids). */
export interface TChangesTableProps {
  entryId: number;
  changes: TAuditChanges;
}

/** The changed fields of an entry, before and after. */
export function ChangesTable({ entryId, changes }: TChangesTableProps) {
  const { t } = useTranslation();
  const rows = Object.entries(changes).map(([field, change]) => ({ field, ...change }));
  return (
    <Table
      data-testid={`audit-changes-${entryId}`}
      size="small"
      rowKey="field"
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: t('auditLog.noChanges') }}
      columns={[
        { title: t('auditLog.field'), dataIndex: 'field', width: 200 },
        { title: t('auditLog.before'), key: 'before', render: (_, r) => <Value value={r.before} testId={`audit-before-${r.field}`} /> },
        { title: t('auditLog.after'), key: 'after', render: (_, r) => <Value value={r.after} testId={`audit-after-${r.field}`} /> },
      ]}
    />
  );
}

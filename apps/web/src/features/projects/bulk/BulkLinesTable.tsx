/** The preview of a bulk registration: one row per line with its serial, name and what is wrong with it. */
import { Table, Tag, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { issueMessage } from '../../../lib/zodRules';
import type { TBulkLine, TLineProblem } from './parseBulk';

/** The words for one problem of a line. */
function useProblemText() {
  const { t } = useTranslation();
  return (p: TLineProblem): string => {
    switch (p.kind) {
      case 'invalid':
        return `${t(p.field === 'name' ? 'common.name' : 'projects.devices.serial')}: ${issueMessage(p.issue, p.value, t)}`;
      case 'duplicate':
        return t('projects.bulk.duplicate', { row: p.firstRow });
      case 'registered':
        return t('projects.bulk.registered');
      case 'server':
        return p.message;
    }
  };
}

/** The table; rows carry `data-testid="bulk-line-<row>"`. */
export function BulkLinesTable({ lines }: { lines: TBulkLine[] }) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  return (
    <Table<TBulkLine>
      rowKey="row"
      size="small"
      dataSource={lines}
      pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
      onRow={(line) => ({ 'data-testid': `bulk-line-${line.row}` }) as HTMLAttributes<HTMLElement>}
      columns={[
        { title: t('projects.bulk.row'), dataIndex: 'row', width: 64 },
        {
          title: t('projects.devices.serial'),
          dataIndex: 'serial_number',
          render: (s: string) => <Typography.Text code>{s || '—'}</Typography.Text>,
        },
        { title: t('common.name'), dataIndex: 'name', render: (n?: string) => n ?? '—' },
        {
          title: t('projects.bulk.check'),
          key: 'check',
          render: (_, line) =>
            line.problems.length === 0 ? (
              <Tag color="success">{t('projects.bulk.ok')}</Tag>
            ) : (
              <span data-testid={`bulk-line-problem-${line.row}`}>
                {line.problems.map(problemText).map((text) => (
                  <Tag color="error" key={text} style={{ whiteSpace: 'normal' }}>
                    {text}
                  </Tag>
                ))}
              </span>
            ),
        },
      ]}
    />
  );
}

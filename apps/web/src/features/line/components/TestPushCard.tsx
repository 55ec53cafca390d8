/** The test push of a group: sends now and lists each member's outcome (sent, pending retry, failed, over quota). */
import { SendOutlined } from '@ant-design/icons';
import type { TLineGroupTestResult } from '@tessera/contracts';
import { Alert, App, Button, Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTestGroup } from '../api';
import { lineErrorKey, pushStateKey } from '../lineErrors';

type TResult = TLineGroupTestResult['results'][number];
const COLORS: Record<TResult['status'], string> = { sent: 'green', pending: 'gold', failed: 'red', quota_exceeded: 'red' };

/** The test-push card of group `groupId`. */
export function TestPushCard({ groupId, disabled }: { groupId: number; disabled: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const test = useTestGroup(groupId);
  return (
    <Card size="small" title={t('line.detail.testResult')}>
      <Button
        icon={<SendOutlined />}
        disabled={disabled}
        loading={test.isPending}
        onClick={() => test.mutate(undefined, { onError: (e) => void message.error(t(lineErrorKey(e, 'errors.saveFailed'))) })}
        data-testid="line-group-test"
      >
        {t('line.detail.test')}
      </Button>
      {test.isError && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={t(lineErrorKey(test.error))} data-testid="line-test-error" />
      )}
      {test.data && (
        <Table<TResult>
          style={{ marginTop: 12 }}
          rowKey={(r) => `${r.kind}-${r.id}`}
          size="small"
          pagination={false}
          dataSource={test.data.results}
          onRow={(r) => ({ 'data-testid': `line-test-result-${r.label}` }) as object}
          columns={[
            { title: t('line.detail.members'), dataIndex: 'label' },
            {
              title: t('line.detail.status'),
              key: 'status',
              render: (_, r) => (
                <Tag color={COLORS[r.status]} data-testid="line-test-status">
                  {t(pushStateKey(r.status))}
                </Tag>
              ),
            },
            {
              title: t('line.detail.error'),
              dataIndex: 'error',
              render: (e: string | null, r) => (r.status === 'failed' ? e : null),
            },
          ]}
        />
      )}
    </Card>
  );
}

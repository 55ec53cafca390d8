/**
 * An integration's last payloads (docs/decisions/lorawan.md "Last payloads"): when each came, its event and DevEUI,
 * what became of it (stored, refused and why, ignored), the status answered and the body as received; refreshed
 * every few seconds while open.
 */
import type { TLorawanIntegration, TLorawanUplinkLogEntry } from '@tessera/contracts';
import { Drawer, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLorawanUplinks } from './api';

const OUTCOME_COLOR: Record<TLorawanUplinkLogEntry['outcome'], string> = { stored: 'success', refused: 'error', ignored: 'default' };

/** The body pretty-printed when it is JSON, as received otherwise. */
function shownBody(entry: TLorawanUplinkLogEntry): string {
  try {
    return JSON.stringify(JSON.parse(entry.body), null, 2);
  } catch {
    return entry.body;
  }
}

/** Open while `integration` is set. */
export function UplinksDrawer(props: { projectId: number; integration: TLorawanIntegration | null; onClose: () => void }) {
  const { t } = useTranslation();
  const uplinks = useLorawanUplinks(props.projectId, props.integration?.id ?? null);
  return (
    <Drawer open={props.integration !== null} onClose={props.onClose} width={760} title={t('lorawan.uplinks')} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('lorawan.uplinksHint')}</Typography.Paragraph>
      <Table<TLorawanUplinkLogEntry>
        rowKey="id"
        size="small"
        data-testid="lorawan-uplinks"
        loading={uplinks.isLoading}
        dataSource={uplinks.data?.data ?? []}
        locale={{ emptyText: uplinks.isLoading ? ' ' : t('lorawan.noUplinks') }}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (e) => (
            <Typography.Paragraph>
              <pre style={{ margin: 0, maxHeight: 320, overflow: 'auto' }}>{shownBody(e)}</pre>
              {e.truncated && <Typography.Text type="secondary">{t('lorawan.truncated')}</Typography.Text>}
            </Typography.Paragraph>
          ),
        }}
        columns={[
          { title: t('lorawan.at'), dataIndex: 'received_at', render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss') },
          { title: t('lorawan.event'), dataIndex: 'event' },
          {
            title: t('lorawan.devEui'),
            dataIndex: 'dev_eui',
            render: (eui: string | null) => (eui ? <Typography.Text code>{eui}</Typography.Text> : '—'),
          },
          {
            title: t('lorawan.outcome'),
            dataIndex: 'outcome',
            render: (o: TLorawanUplinkLogEntry['outcome'], e) => (
              <Tag color={OUTCOME_COLOR[o]} data-testid="lorawan-uplink-outcome">
                {t(`lorawan.outcomes.${o}`)}
                {o === 'stored' ? ` · ${e.points}` : ''}
              </Tag>
            ),
          },
          {
            title: t('lorawan.reason'),
            dataIndex: 'reason',
            render: (r: TLorawanUplinkLogEntry['reason'], e) =>
              r ? (
                <Typography.Text title={e.detail}>
                  {t(`lorawan.reasons.${r}`)}
                  {e.detail ? ` (${e.detail})` : ''}
                </Typography.Text>
              ) : (
                ''
              ),
          },
          { title: t('lorawan.status'), dataIndex: 'status' },
        ]}
      />
    </Drawer>
  );
}

/**
 * The runs of a rule (spec §7 logs): newest first, outcome and duration; a click shows the run's trace on the graph;
 * replay re-runs one against the saved draft. The selected run's recorded effects are listed below. Under load the
 * server traces a sample (docs/platform-rules.md "What a trace costs"): the card says how many kept runs stand for
 * runs not traced, and a run standing for others says how many.
 */
import type { TFlowRun } from '@tessera/contracts';
import { Button, Card, Empty, List, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The runs card of the flow editor. */
export function RunsCard({
  runs,
  untraced,
  run,
  selectedId,
  onSelect,
  onReplay,
}: {
  runs: Omit<TFlowRun, 'steps' | 'effects'>[];
  /** Runs not traced among those the trace keeps (the run list's `untraced`). */
  untraced: number;
  run: TFlowRun | undefined;
  selectedId: number | null;
  onSelect: (runId: number) => void;
  onReplay: (runId: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('platformRules.runs')} data-testid="rule-runs">
      {untraced > 0 && (
        <Typography.Paragraph type="secondary" data-testid="runs-untraced">
          {t('platformRules.untracedRuns', { count: untraced })}
        </Typography.Paragraph>
      )}
      <Table<Omit<TFlowRun, 'steps' | 'effects'>>
        rowKey="id"
        size="small"
        dataSource={runs}
        pagination={false}
        locale={{ emptyText: <Empty description={t('platformRules.noRuns')} /> }}
        onRow={(r) =>
          ({
            onClick: () => onSelect(r.id),
            'data-testid': `run-row-${r.id}`,
            style: { cursor: 'pointer', background: r.id === selectedId ? '#e6f4ff' : undefined },
          }) as never
        }
        columns={[
          {
            title: t('platformRules.startedAt'),
            dataIndex: 'started_at',
            render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss'),
          },
          {
            title: t('platformRules.outcome'),
            dataIndex: 'outcome',
            render: (o: string, r) => (
              <Space size={4}>
                <Tag color={o === 'ok' ? 'green' : o === 'error' ? 'red' : 'gold'} data-testid={`run-outcome-${r.id}`}>
                  {t(`platformRules.outcomes.${o}`)}
                </Tag>
                {r.replay && <Tag>{t('platformRules.replay')}</Tag>}
                {r.untraced_before > 0 && <Tag>{t('platformRules.untracedBefore', { count: r.untraced_before })}</Tag>}
                {typeof r.trigger.scheduled_node === 'string' && (
                  <Tag color="blue" data-testid={`run-scheduled-${r.id}`}>
                    {t('platformRules.scheduledSend')}
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: t('platformRules.duration'), dataIndex: 'duration_ms', render: (ms: number) => `${ms.toFixed(1)} ms` },
          { title: t('platformRules.error'), dataIndex: 'error', render: (e: string | null) => e ?? '—' },
          {
            title: t('common.actions'),
            key: 'replay',
            render: (_: unknown, r) => (
              <Button
                size="small"
                onClick={(e) => {
                  e.stopPropagation();
                  onReplay(r.id);
                }}
                data-testid={`run-replay-${r.id}`}
              >
                {t('platformRules.replayAction')}
              </Button>
            ),
          },
        ]}
      />
      {run && run.effects.length > 0 && (
        <List
          size="small"
          header={t('platformRules.effects')}
          dataSource={run.effects}
          data-testid="run-effects"
          renderItem={(e) => (
            <List.Item>
              <Tag>{e.node_id}</Tag> {t(`platformRules.effectKinds.${e.kind}`)}{' '}
              <Typography.Text code>{JSON.stringify(e.detail)}</Typography.Text>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

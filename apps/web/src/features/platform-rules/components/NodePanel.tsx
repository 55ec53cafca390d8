/**
 * The flow editor's side panel: the selected node's form (contract-validated, NodeForm) and, when a run is selected,
 * that node's step in it — input, output, the variables after it (rebuilt from the steps' deltas) and its error.
 */
import { type TFlowNodeType, type TFlowStep, variablesAfter } from '@tessera/contracts';
import { Card, Descriptions, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NodeForm } from './NodeForm';

/** The panel; `node` null when nothing is selected. */
export function NodePanel({
  node,
  onChange,
  step,
  steps,
}: {
  node: { id: string; kind: TFlowNodeType; data: Record<string, unknown> } | null;
  onChange: (data: Record<string, unknown>) => void;
  step: TFlowStep | undefined;
  steps: TFlowStep[];
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={node ? `${t(`platformRules.nodes.${node.kind}`)} ${node.id}` : t('platformRules.node')}
      style={{ width: 320, flex: 'none' }}
      data-testid="node-panel"
    >
      {node ? (
        <>
          <NodeForm kind={node.kind} data={node.data} onChange={onChange} />
          {step && (
            <Descriptions size="small" column={1} bordered title={t('platformRules.step')} data-testid="node-step">
              <Descriptions.Item label={t('platformRules.input')}>
                <Typography.Text code>{JSON.stringify(step.input)}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('platformRules.output')}>
                <Typography.Text code data-testid="node-step-output">
                  {JSON.stringify(step.output)}
                </Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('platformRules.variables')}>
                <Typography.Text code>{JSON.stringify(variablesAfter(steps, steps.indexOf(step)))}</Typography.Text>
              </Descriptions.Item>
              {step.error && (
                <Descriptions.Item label={t('platformRules.error')}>
                  <Typography.Text type="danger">{step.error}</Typography.Text>
                </Descriptions.Item>
              )}
            </Descriptions>
          )}
        </>
      ) : (
        <Empty description={t('platformRules.pickNode')} />
      )}
    </Card>
  );
}

/**
 * A node of the flow editor (React Flow custom node): the node type's name, a one-line summary, its problem from the
 * last apply (red, with the message), and — while a run is shown — whether the run went through it (green) or
 * stopped on it (red). Start has no input handle; every other node has one input and one output.
 */
import type { TFlowNodeType } from '@tessera/contracts';
import { Handle, type NodeProps, Position, type Node } from '@xyflow/react';
import { theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { nodeSummary } from '../model/nodes';

/** The data a flow node carries on the canvas. */
export interface TFlowNodeView extends Record<string, unknown> {
  kind: TFlowNodeType;
  data: Record<string, unknown>;
  problem?: string;
  trace?: 'visited' | 'error';
}

/** The React Flow node type of the editor. */
export type TFlowCanvasNode = Node<TFlowNodeView, 'flow'>;

const BORDER = { visited: '#52c41a', error: '#ff4d4f' } as const;

/** Renders one node. */
export function FlowNode({ id, data, selected }: NodeProps<TFlowCanvasNode>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const border = data.problem ? token.colorError : data.trace ? BORDER[data.trace] : selected ? token.colorPrimary : token.colorBorder;
  const body = (
    <div
      data-testid={`flow-node-${id}`}
      data-kind={data.kind}
      data-trace={data.trace ?? ''}
      data-problem={data.problem ? 'true' : 'false'}
      style={{
        background: token.colorBgContainer,
        color: token.colorText,
        border: `2px solid ${border}`,
        borderRadius: 8,
        padding: '6px 10px',
        minWidth: 150,
        maxWidth: 220,
        boxShadow: selected ? '0 0 0 2px rgba(22,119,255,0.2)' : undefined,
      }}
    >
      {data.kind !== 'start' && <Handle type="target" position={Position.Top} />}
      <Typography.Text strong style={{ display: 'block' }}>
        {t(`platformRules.nodes.${data.kind}`)} <Typography.Text type="secondary">{id}</Typography.Text>
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, display: 'block' }}>
        {nodeSummary(data.kind, data.data) || '—'}
      </Typography.Text>
      {data.problem && (
        <Typography.Text type="danger" style={{ fontSize: 12, display: 'block' }} data-testid={`flow-node-problem-${id}`}>
          {data.problem}
        </Typography.Text>
      )}
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
  return data.problem ? <Tooltip title={data.problem}>{body}</Tooltip> : body;
}

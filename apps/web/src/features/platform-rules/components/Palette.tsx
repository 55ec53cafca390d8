/**
 * The flow editor's palette of the 12 node types: drag one onto the canvas, or click it to add it at the centre
 * (the keyboard way).
 */
import type { TFlowNodeType } from '@tessera/contracts';
import { Button, Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { PALETTE } from '../model/nodes';

/** The drag data type of a palette node (its value is the node type). */
export const DRAG_TYPE = 'application/x-tessera-node';

/** The palette card. */
export function Palette({ onAdd }: { onAdd: (kind: TFlowNodeType) => void }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('platformRules.palette')} style={{ width: 190, flex: 'none' }} styles={{ body: { padding: 8 } }}>
      <Flex vertical gap={4}>
        {PALETTE.map((kind) => (
          <Button
            key={kind}
            size="small"
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, kind);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onClick={() => onAdd(kind)}
            data-testid={`palette-${kind}`}
            style={{ textAlign: 'left' }}
          >
            {t(`platformRules.nodes.${kind}`)}
          </Button>
        ))}
      </Flex>
    </Card>
  );
}

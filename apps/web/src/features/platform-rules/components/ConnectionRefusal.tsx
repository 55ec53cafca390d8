/**
 * The flow editor refuses a connection that apply would refuse (contracts' `connectionRefusal`, the rule the server's
 * `flowProblems` shares), and says why where the person let go of it: a note at the pointer, in the reader's language
 * (`platformRules.connection.*`), until the next connection or a click on the canvas.
 */
import { connectionRefusal, type TConnectionNode } from '@tessera/contracts';
import type { Connection, Edge, FinalConnectionState, IsValidConnection } from '@xyflow/react';
import { theme } from 'antd';
import type { TFunction } from 'i18next';
import { type RefObject, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A refusal shown at `x`, `y` (pixels inside the canvas). */
interface TRefusalNote {
  text: string;
  x: number;
  y: number;
}

/** The graph as the rule reads it: node ids, their types and data; edges. */
export interface TRuleGraph {
  nodes: TConnectionNode[];
  edges: { source: string; target: string }[];
}

/** The sentence saying why `source → target` is refused in `graph`, or null when it is allowed. */
export function refusalText(t: TFunction, graph: TRuleGraph, connection: { source: string; target: string }): string | null {
  const refusal = connectionRefusal(graph, connection);
  if (!refusal) return null;
  const branch = refusal.params?.branch;
  const reason = t(`platformRules.connection.${refusal.code}`, {
    branch: branch === undefined ? '' : t(`platformRules.problems.branches.${branch}`),
    interpolation: { escapeValue: false },
  });
  return t('platformRules.connection.refused', { reason, interpolation: { escapeValue: false } });
}

function pointOf(event: MouseEvent | TouchEvent): { x: number; y: number } {
  const touch = 'changedTouches' in event ? event.changedTouches[0] : undefined;
  return touch ? { x: touch.clientX, y: touch.clientY } : { x: (event as MouseEvent).clientX, y: (event as MouseEvent).clientY };
}

/**
 * React Flow's `isValidConnection` and `onConnectEnd` for `graph`, and the note of the last refusal (`note`, null
 * when none) with `clear` to hide it. `canvas` is the element the note is placed in.
 */
export function useConnectionRule(graph: TRuleGraph, canvas: RefObject<HTMLElement | null>) {
  const { t } = useTranslation();
  const [note, setNote] = useState<TRefusalNote | null>(null);
  const isValidConnection: IsValidConnection<Edge> = useCallback(
    (c: Connection | Edge) => connectionRefusal(graph, { source: c.source, target: c.target }) === null,
    [graph],
  );
  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      setNote(null);
      if (!state.fromNode || !state.toNode || state.isValid) return;
      const fromSource = state.fromHandle?.type !== 'target';
      const connection = fromSource
        ? { source: state.fromNode.id, target: state.toNode.id }
        : { source: state.toNode.id, target: state.fromNode.id };
      const text = refusalText(t, graph, connection);
      const box = canvas.current?.getBoundingClientRect();
      const at = pointOf(event);
      if (text) setNote({ text, x: at.x - (box?.x ?? 0), y: at.y - (box?.y ?? 0) });
    },
    [graph, t, canvas],
  );
  return { isValidConnection, onConnectEnd, note, clear: () => setNote(null) };
}

/** The note of a refused connection, placed where it was drawn. */
export function RefusalNote({ note }: { note: TRefusalNote | null }) {
  const { token } = theme.useToken();
  if (!note) return null;
  return (
    <div
      role="alert"
      data-testid="flow-connection-refused"
      style={{
        position: 'absolute',
        left: note.x + 12,
        top: note.y + 12,
        zIndex: 10,
        maxWidth: 280,
        padding: '6px 10px',
        borderRadius: token.borderRadius,
        background: token.colorErrorBg,
        border: `1px solid ${token.colorErrorBorder}`,
        color: token.colorErrorText,
        boxShadow: token.boxShadowSecondary,
        fontSize: 13,
        pointerEvents: 'none',
      }}
    >
      {note.text}
    </div>
  );
}

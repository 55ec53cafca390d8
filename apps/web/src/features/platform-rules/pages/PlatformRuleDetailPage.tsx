/**
 * /platform_rule/detail/{id} (spec §2 flow editor, §4 actions): a React Flow canvas with the palette of the 12 node
 * types (drag onto the canvas, or click to add), connect, delete (Delete/Backspace), undo/redo (Ctrl+Z,
 * Ctrl+Shift+Z), copy/paste of selected nodes (Ctrl+C, Ctrl+V), the selected node's form in the side panel; save,
 * apply (problems come back on their nodes), start, stop, run; the run list, a run's path highlighted on the graph
 * with each node's input, output and variables on click, and replay of a run against the saved draft. A connection
 * apply would refuse is refused as it is drawn, with the reason where it was let go (components/ConnectionRefusal). At phone width
 * (lib/useIsPhone) the editor opens read-only: the graph (pan and zoom, no palette, no node form, no editing), the
 * rule's start/stop/run and its run list, with a note that editing needs a wider screen.
 */
import { PlayCircleOutlined, RedoOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import type { TFlowEdge, TFlowNode, TFlowNodeType, TPlatformRule } from '@tessera/contracts';
import {
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Alert, App, Button, Flex, Input, Space, Spin, Tag, theme } from 'antd';
import { type DragEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { HttpError } from '../../../lib/http';
import { useColorScheme } from '../../../lib/colorScheme';
import { useIsPhone } from '../../../lib/useIsPhone';
import { useSession } from '../../../lib/useSession';
import { useUnsavedChangesPrompt } from '../../../lib/useUnsavedChangesPrompt';
import { usePlatformRule, useReplayRun, useRuleAction, useRuleRun, useRuleRuns, useSavePlatformRule } from '../api';
import { RefusalNote, useConnectionRule } from '../components/ConnectionRefusal';
import { FlowNode, type TFlowCanvasNode } from '../components/FlowNode';
import { NodePanel } from '../components/NodePanel';
import { DRAG_TYPE, Palette } from '../components/Palette';
import { FiresCard } from '../components/FiresCard';
import { RunsCard } from '../components/RunsCard';
import { StatusTag } from '../components/StatusTag';
import { defaultNodeData, nextNodeId, PALETTE } from '../model/nodes';
import { problemText } from '../model/problems';

const NODE_TYPES = { flow: FlowNode };
const HISTORY_MAX = 100;

interface TGraphState {
  nodes: TFlowCanvasNode[];
  edges: Edge[];
}

function toCanvas(draft: TPlatformRule['draft']): TGraphState {
  const nodes = (draft.nodes as TFlowNode[]).map<TFlowCanvasNode>((n) => ({
    id: n.id,
    type: 'flow',
    position: n.position,
    data: { kind: n.type, data: n.data as Record<string, unknown> },
  }));
  const edges = (draft.edges as TFlowEdge[]).map<Edge>((e) => ({ id: e.id, source: e.source, target: e.target }));
  return { nodes, edges };
}

/** JSON with object keys sorted, so two drafts compare equal whatever order their keys were written in. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );
}

function toDraft(g: TGraphState): TPlatformRule['draft'] {
  return {
    nodes: g.nodes.map((n) => ({
      id: n.id,
      type: n.data.kind,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      data: n.data.data,
    })),
    edges: g.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  };
}

function Editor({ rule }: { rule: TPlatformRule }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const flow = useReactFlow();
  const compact = useIsPhone();
  const colorScheme = useColorScheme();
  const { token } = theme.useToken();
  const [graph, setGraph] = useState<TGraphState>(() => toCanvas(rule.draft));
  const [saved, setSaved] = useState(() => canonical(toDraft(toCanvas(rule.draft))));
  const [name, setName] = useState(rule.name);
  // The stored problems, refetched with the rule after every action: the status and the problems on the nodes
  // always come from the same read, so a node never shows a problem of a rule that is already `good`.
  const problemList = rule.problems;
  const problems: Record<string, string> = Object.fromEntries(
    problemList.filter((p) => p.node_id).map((p) => [p.node_id as string, problemText(t, p)]),
  );
  const graphProblems = problemList.filter((p) => !p.node_id).map((p) => problemText(t, p));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const past = useRef<TGraphState[]>([]);
  const future = useRef<TGraphState[]>([]);
  const clipboard = useRef<TFlowCanvasNode[]>([]);
  const save = useSavePlatformRule(rule.id);
  const action = useRuleAction(rule.id);
  const runs = useRuleRuns(rule.id);
  const run = useRuleRun(rule.id, runId);
  const replay = useReplayRun(rule.id);

  const draft = useMemo(() => toDraft(graph), [graph]);
  const canvas = useRef<HTMLDivElement>(null);
  const ruleGraph = useMemo(
    () => ({ nodes: graph.nodes.map((n) => ({ id: n.id, type: n.data.kind, data: n.data.data })), edges: graph.edges }),
    [graph],
  );
  const connectionRule = useConnectionRule(ruleGraph, canvas);
  const dirty = canonical(draft) !== saved || name !== rule.name;
  useUnsavedChangesPrompt(dirty);

  /** Records the graph before a change, for undo. */
  const commit = useCallback((next: TGraphState | ((g: TGraphState) => TGraphState)) => {
    setGraph((g) => {
      past.current = [...past.current.slice(-HISTORY_MAX + 1), g];
      future.current = [];
      return typeof next === 'function' ? next(g) : next;
    });
  }, []);
  const undo = () => {
    const prev = past.current.pop();
    if (!prev) return;
    setGraph((g) => {
      future.current.push(g);
      return prev;
    });
  };
  const redo = () => {
    const next = future.current.pop();
    if (!next) return;
    setGraph((g) => {
      past.current.push(g);
      return next;
    });
  };

  const onNodesChange = (changes: NodeChange<TFlowCanvasNode>[]) => {
    const structural = changes.some((c) => c.type === 'remove' || (c.type === 'position' && c.dragging === false));
    const apply = (g: TGraphState) => ({ ...g, nodes: applyNodeChanges(changes, g.nodes) });
    if (structural) commit(apply);
    else setGraph(apply);
    for (const c of changes) if (c.type === 'select' && c.selected) setSelectedId(c.id);
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    const apply = (g: TGraphState) => ({ ...g, edges: applyEdgeChanges(changes, g.edges) });
    if (changes.some((c) => c.type === 'remove')) commit(apply);
    else setGraph(apply);
  };
  const onConnect = (c: Connection) => commit((g) => ({ ...g, edges: addEdge({ ...c, id: `e-${c.source}-${c.target}` }, g.edges) }));

  const addNode = (kind: TFlowNodeType, position: { x: number; y: number }) =>
    commit((g) => {
      const id = nextNodeId(g.nodes.map((n) => n.id));
      setSelectedId(id);
      return { ...g, nodes: [...g.nodes, { id, type: 'flow', position, data: { kind, data: defaultNodeData(kind, Date.now()) } }] };
    });
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const kind = e.dataTransfer.getData(DRAG_TYPE) as TFlowNodeType;
    if (!PALETTE.includes(kind)) return;
    addNode(kind, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
  };
  const addAtCentre = (kind: TFlowNodeType) => {
    const box = document.querySelector('[data-testid="flow-canvas"]')?.getBoundingClientRect();
    const at = box ? flow.screenToFlowPosition({ x: box.x + box.width / 2, y: box.y + box.height / 3 }) : { x: 0, y: 0 };
    addNode(kind, { x: at.x + graph.nodes.length * 12, y: at.y + graph.nodes.length * 12 });
  };

  // Keyboard: undo/redo and copy/paste of selected nodes (Delete is React Flow's own).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      if (!(e.ctrlKey || e.metaKey)) return;
      const key = e.key.toLowerCase();
      if (key === 'z') {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
      } else if (key === 'y') {
        e.preventDefault();
        redo();
      } else if (key === 'c') {
        clipboard.current = graph.nodes.filter((n) => n.selected);
      } else if (key === 'v' && clipboard.current.length > 0) {
        e.preventDefault();
        commit((g) => {
          const ids = g.nodes.map((n) => n.id);
          const copies = clipboard.current.map((n) => {
            const id = nextNodeId(ids);
            ids.push(id);
            return { ...n, id, selected: true, position: { x: n.position.x + 40, y: n.position.y + 40 }, data: structuredClone(n.data) };
          });
          return { ...g, nodes: [...g.nodes.map((n) => ({ ...n, selected: false })), ...copies] };
        });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const trace = useMemo(() => {
    const steps = run.data?.steps ?? [];
    return new Map(steps.map((s) => [s.node_id, s]));
  }, [run.data]);
  const shown: TFlowCanvasNode[] = graph.nodes.map((n) => {
    const step = runId !== null ? trace.get(n.id) : undefined;
    return { ...n, data: { ...n.data, problem: problems[n.id], trace: step ? (step.error ? 'error' : 'visited') : undefined } };
  });
  const selected = graph.nodes.find((n) => n.id === selectedId) ?? null;
  const setSelectedData = (data: Record<string, unknown>) =>
    setGraph((g) => ({ ...g, nodes: g.nodes.map((n) => (n.id === selectedId ? { ...n, data: { ...n.data, data } } : n)) }));

  const saveDraft = () =>
    save.mutateAsync({ name: name.trim(), description: rule.description, draft }).then((r) => {
      setSaved(canonical(toDraft(toCanvas(r.draft))));
      return r;
    });
  const showFailure = (e: unknown) => {
    const err = e as HttpError;
    if (err.code === 'RULE_APPLY_FAILED' && err.details) {
      // The problems show on their nodes from the stored rule, refetched when the action settled (their codes are
      // said in the reader's language; the error's details are English).
      void message.error(t('platformRules.applyFailed'));
      return;
    }
    modal.error({ title: t('platformRules.actionFailed'), content: <span data-testid="rule-action-error">{err.message}</span> });
  };
  const onSave = () => saveDraft().then(() => void message.success(t('common.saved')), showFailure);
  const onApply = () =>
    saveDraft()
      .then(() => action.mutateAsync('apply'))
      .then((applied) => {
        // The applied draft has the schema's defaults filled in: it becomes what the canvas shows and what is saved.
        if ('draft' in applied) {
          const next = toCanvas(applied.draft);
          setGraph((g) => ({
            nodes: next.nodes.map((n) => ({ ...n, selected: g.nodes.find((o) => o.id === n.id)?.selected })),
            edges: next.edges,
          }));
          setSaved(canonical(toDraft(next)));
        }
        void message.success(t('platformRules.done.apply'));
      }, showFailure);
  const onAction = (a: 'start' | 'stop' | 'run') =>
    action.mutateAsync(a).then((r) => {
      void message.success(t(`platformRules.done.${a}`));
      if (a === 'run' && 'run_id' in r) setRunId(r.run_id);
    }, showFailure);
  const onReplay = (id: number) => replay.mutateAsync(id).then((r) => setRunId(r.run_id), showFailure);

  const running = rule.status === 'running' || rule.status === 'queuing';
  const step = selected && runId !== null ? trace.get(selected.id) : undefined;

  return (
    <Flex vertical gap={12} style={{ minWidth: 0 }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space wrap>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={64}
            readOnly={compact}
            style={{ width: compact ? '100%' : 240 }}
            data-testid="rule-detail-name"
            aria-label={t('common.name')}
          />
          <StatusTag status={rule.status} testId="rule-detail-status" />
          {rule.version > 0 && <Tag data-testid="rule-detail-version">v{rule.version}</Tag>}
          {dirty && <Tag color="orange">{t('platformRules.unsaved')}</Tag>}
        </Space>
        <Space wrap>
          {!compact && (
            <>
              <Button icon={<UndoOutlined />} onClick={undo} aria-label={t('platformRules.undo')} data-testid="flow-undo" />
              <Button icon={<RedoOutlined />} onClick={redo} aria-label={t('platformRules.redo')} data-testid="flow-redo" />
              <Button icon={<SaveOutlined />} onClick={onSave} loading={save.isPending} data-testid="rule-save">
                {t('common.save')}
              </Button>
              <Button type="primary" onClick={onApply} loading={action.isPending && action.variables === 'apply'} data-testid="rule-apply">
                {t('platformRules.apply')}
              </Button>
            </>
          )}
          {running ? (
            <Button
              danger
              onClick={() =>
                modal.confirm({
                  title: t('platformRules.stopTitle', { name: rule.name }),
                  content: t('platformRules.stopContent'),
                  okButtonProps: { 'data-testid': 'rule-stop-confirm' },
                  onOk: () => onAction('stop'),
                })
              }
              data-testid="rule-detail-stop"
            >
              {t('platformRules.stop')}
            </Button>
          ) : (
            <Button onClick={() => onAction('start')} disabled={rule.version === 0} data-testid="rule-detail-start">
              {t('platformRules.start')}
            </Button>
          )}
          {rule.trigger_kind === 'manual' && (
            <Button icon={<PlayCircleOutlined />} onClick={() => onAction('run')} data-testid="rule-run">
              {t('platformRules.runNow')}
            </Button>
          )}
        </Space>
      </Flex>
      {graphProblems.length > 0 && <Alert type="error" showIcon data-testid="rule-graph-problems" message={graphProblems.join('; ')} />}
      {compact && <Alert type="info" showIcon data-testid="rule-read-only" message={t('platformRules.phoneReadOnly')} />}
      <Flex gap={12} align="stretch" style={{ minWidth: 0 }}>
        {!compact && <Palette onAdd={addAtCentre} />}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target of the palette's drag; every node can also be added by its palette button */}
        <div
          ref={canvas}
          style={{
            position: 'relative',
            flex: 1,
            minWidth: 0,
            height: compact ? 360 : 560,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: 8,
          }}
          onDragOver={(e) => e.preventDefault()}
          onDrop={compact ? undefined : onDrop}
          data-testid="flow-canvas"
        >
          <ReactFlow<TFlowCanvasNode>
            nodes={shown}
            edges={graph.edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            isValidConnection={connectionRule.isValidConnection}
            onConnectEnd={connectionRule.onConnectEnd}
            onPaneClick={() => {
              setSelectedId(null);
              connectionRule.clear();
            }}
            nodesDraggable={!compact}
            nodesConnectable={!compact}
            edgesReconnectable={!compact}
            deleteKeyCode={compact ? null : ['Delete', 'Backspace']}
            defaultViewport={{ x: 0, y: 0, zoom: 1 }}
            fitView={rule.draft.nodes.length > 0}
            fitViewOptions={{ maxZoom: 1 }}
            proOptions={{ hideAttribution: true }}
            colorMode={colorScheme}
          >
            <Background />
            <Controls />
          </ReactFlow>
          <RefusalNote note={connectionRule.note} />
        </div>
        {!compact && (
          <NodePanel
            node={selected ? { id: selected.id, kind: selected.data.kind, data: selected.data.data } : null}
            onChange={setSelectedData}
            step={step}
            steps={run.data?.steps ?? []}
          />
        )}
      </Flex>
      <RunsCard
        runs={runs.data?.data ?? []}
        untraced={runs.data?.untraced ?? 0}
        run={run.data}
        selectedId={runId}
        onSelect={setRunId}
        onReplay={onReplay}
      />
      {rule.trigger_kind === 'schedule' && <FiresCard ruleId={rule.id} />}
    </Flex>
  );
}

/** The flow editor page. */
export default function PlatformRuleDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const readOnly = useSession().level === 'user';
  const rule = usePlatformRule(readOnly ? 0 : id);
  if (readOnly)
    return (
      <Alert
        type="info"
        showIcon
        data-testid="rule-vendor-only"
        message={t('platformRules.vendorOnlyEditor')}
        action={<Button onClick={() => navigate('/platform_rule/list')}>{t('platformRules.backToList')}</Button>}
      />
    );
  if (rule.isPending) return <Spin data-testid="rule-loading" />;
  if (rule.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="rule-not-found"
        message={t('platformRules.notFound')}
        action={<Button onClick={() => navigate('/platform_rule/list')}>{t('platformRules.backToList')}</Button>}
      />
    );
  return (
    <ReactFlowProvider>
      <Editor key={rule.data.id} rule={rule.data} />
    </ReactFlowProvider>
  );
}

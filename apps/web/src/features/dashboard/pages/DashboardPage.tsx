/**
 * /dashboard (spec §2 "Pages and widgets. Refresh choices 5, 10 and 30 min", §3 dashboard state; docs/dashboard.md):
 * the viewer's pages as tabs — added, renamed, moved, deleted after a confirmation; the page shown is `?page=` (its
 * position, 1 by default) — and the page's widgets on a 12-column grid (react-grid-layout), dragged by their header
 * and resized from their corner, the layout saved when a drag or resize ends. Below 768 px the widgets stack in one
 * column (reading only). Empty states lead to the first page and the first widget.
 */
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { DASHBOARD_MAX_PAGES, DASHBOARD_MAX_WIDGETS, type TDashboardPage, type TWidget, type TWidgetType } from '@tessera/contracts';
import { App, Button, Dropdown, Empty, Flex, Skeleton, Tabs } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { type Layout, useContainerWidth } from 'react-grid-layout';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Panel } from '../../../components/Panel';
import { useDashboardPages, useDashboardWidgets, usePageMutations, useSaveWidgets } from '../api';
import { MARGIN_PX, ROW_PX } from '../components/gridSize';
import { WidgetFrame } from '../components/WidgetFrame';
import { carryGridKeys, placeNew, sameLayout, type TGridItem, toSave, withLayout } from '../model/widgets';

// The widget form (device and key pickers, colour picker, number inputs) loads when a widget is first added or edited:
// a dashboard opened to watch does not download it.
const WidgetEditor = lazy(() => import('../components/WidgetEditor').then((m) => ({ default: m.WidgetEditor })));
// The page's name form loads when a page is first added or renamed, and the draggable grid (react-grid-layout) only
// from 768 px up: a phone stacks the widgets without it.
const PageNameModal = lazy(() => import('../components/PageNameModal').then((m) => ({ default: m.PageNameModal })));
const WidgetGrid = lazy(() => import('../components/WidgetGrid'));

/** Below this width the widgets stack in one column. */
const STACK_BELOW_PX = 768;
const cellHeight = (h: number) => h * ROW_PX + (h - 1) * MARGIN_PX;

/** One page's widgets on the grid. */
function PageGrid({ page }: { page: TDashboardPage }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const state = useDashboardWidgets(page.id);
  const save = useSaveWidgets(page.id);
  const [widgets, setWidgets] = useState<TWidget[]>([]);
  const [editing, setEditing] = useState<TWidget | 'new' | null>(null);
  // Mounted from the first edit on, so the form's own closing runs as before.
  const editorWanted = useRef(false);
  if (editing !== null) editorWanted.current = true;
  const nextId = useRef(-1);
  const { width, containerRef, mounted } = useContainerWidth();
  // Grid keys by widget id: a new widget keeps its key once saved (model/widgets.ts carryGridKeys).
  const gridKeys = useRef(new Map<number, string>());
  const shown = useRef(widgets);
  shown.current = widgets;
  // The stored list replaces the page's own once no save is under way (a save's answer becomes the stored list).
  const saving = save.isPending;
  useEffect(() => {
    if (!state.data || saving) return;
    gridKeys.current = carryGridKeys(shown.current, state.data.widgetList, gridKeys.current);
    setWidgets(state.data.widgetList);
  }, [state.data, saving]);
  const keyOf = (w: TWidget) => gridKeys.current.get(w.id) ?? String(w.id);

  /** Saves `next`; `savedText` is said once the server has it (a drag or resize has no other sign of being saved). */
  const persist = (next: TWidget[], savedText?: string) => {
    const before = widgets;
    setWidgets(next);
    save.mutate(
      { widgetList: toSave(next) },
      {
        onSuccess: () => {
          if (savedText) void message.success({ content: <span data-testid="layout-saved">{savedText}</span>, key: 'layout-saved' });
        },
        onError: (e) => {
          setWidgets(before);
          void message.error(e.message);
        },
      },
    );
  };
  const onLayoutDone = (layout: Layout) => {
    const next = withLayout(widgets, layout as readonly TGridItem[]);
    if (!sameLayout(widgets, next)) persist(next, t('dashboard.layoutSaved'));
  };
  const onEdited = (w: { type: TWidgetType; title: string; parameter: string }) => {
    if (editing === 'new') persist([...widgets, { id: nextId.current--, ...w, layout: placeNew(w.type, widgets) }]);
    else if (editing) persist(widgets.map((x) => (x.id === editing.id ? { ...x, ...w } : x)));
    setEditing(null);
  };
  const onDelete = (w: TWidget) =>
    modal.confirm({
      title: t('dashboard.deleteWidgetTitle', { name: w.title || t(`dashboard.types.${w.type}`) }),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'widget-delete-confirm' },
      onOk: () => persist(widgets.filter((x) => x.id !== w.id)),
    });

  const full = widgets.length >= DASHBOARD_MAX_WIDGETS;
  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} disabled={full} onClick={() => setEditing('new')} data-testid="widget-add">
      {t('dashboard.addWidget')}
    </Button>
  );
  const stacked = mounted && width < STACK_BELOW_PX;
  const frame = (w: TWidget, editable: boolean) => (
    <WidgetFrame widget={w} height={cellHeight(w.layout.h)} editable={editable} onEdit={() => setEditing(w)} onDelete={() => onDelete(w)} />
  );

  return (
    <Flex vertical gap={12}>
      <Flex justify="end" gap={8}>
        {full && <span style={{ alignSelf: 'center' }}>{t('dashboard.widgetLimit', { max: DASHBOARD_MAX_WIDGETS })}</span>}
        {addButton}
      </Flex>
      <div ref={containerRef} data-testid="dashboard-grid" data-saving={save.isPending}>
        {state.isLoading && <Skeleton active />}
        {state.isSuccess && widgets.length === 0 && <Empty description={t('dashboard.noWidgets')}>{addButton}</Empty>}
        {stacked && (
          <Flex vertical gap={MARGIN_PX}>
            {[...widgets]
              .sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x)
              .map((w) => (
                <div key={w.id} style={{ height: cellHeight(w.layout.h) }}>
                  {frame(w, false)}
                </div>
              ))}
          </Flex>
        )}
        {mounted && !stacked && widgets.length > 0 && (
          <Suspense fallback={<Skeleton active />}>
            <WidgetGrid width={width} widgets={widgets} keyOf={keyOf} frame={(w) => frame(w, true)} onLayoutDone={onLayoutDone} />
          </Suspense>
        )}
      </div>
      {editorWanted.current && (
        <Suspense fallback={null}>
          <WidgetEditor
            open={editing !== null}
            widget={editing === 'new' ? undefined : (editing ?? undefined)}
            onClose={() => setEditing(null)}
            onDone={onEdited}
          />
        </Suspense>
      )}
    </Flex>
  );
}

/** The dashboard. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const pages = useDashboardPages();
  const changes = usePageMutations();
  const [search, setSearch] = useSearchParams();
  const [naming, setNaming] = useState<TDashboardPage | 'new' | null>(null);
  // Mounted from the first add or rename on, so the modal's own closing runs as before.
  const namingWanted = useRef(false);
  if (naming !== null) namingWanted.current = true;
  const list = pages.data?.data ?? [];
  const position = Number(search.get('page') ?? 1);
  const current = list.find((p) => p.position === position) ?? list[0];
  const show = (p: TDashboardPage) => setSearch({ page: String(p.position) }, { replace: true });
  const fail = (e: Error) => void message.error(e.message);

  const onNamed = (name: string) => {
    if (naming === 'new')
      changes.create.mutate(name, {
        onSuccess: (p) => {
          setNaming(null);
          show(p);
        },
        onError: fail,
      });
    else if (naming) changes.rename.mutate({ id: naming.id, name }, { onSuccess: () => setNaming(null), onError: fail });
  };
  const move = (p: TDashboardPage, by: -1 | 1) => {
    const ids = list.map((x) => x.id);
    const i = ids.indexOf(p.id);
    const j = i + by;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    changes.order.mutate(ids, { onSuccess: () => setSearch({ page: String(j + 1) }, { replace: true }), onError: fail });
  };
  const remove = (p: TDashboardPage) =>
    modal.confirm({
      title: t('dashboard.deletePageTitle', { name: p.name }),
      content: t('dashboard.deletePageContent', { count: p.widget_count }),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'page-delete-confirm' },
      onOk: () => changes.remove.mutateAsync(p.id).then(() => setSearch({}, { replace: true }), fail),
    });

  // The shown page's menu sits in the panel's header, not inside its tab: a button within a tab (itself a control) is a
  // nested control screen readers cannot reach (axe: nested-interactive), and the tab list may hold only tabs.
  const pageMenu = (p: TDashboardPage) => (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'rename', label: t('dashboard.renamePage'), onClick: () => setNaming(p) },
          { key: 'left', label: t('dashboard.moveLeft'), disabled: p.position === 1, onClick: () => move(p, -1) },
          { key: 'right', label: t('dashboard.moveRight'), disabled: p.position === list.length, onClick: () => move(p, 1) },
          {
            key: 'delete',
            label: <span data-testid="page-delete">{t('dashboard.deletePage')}</span>,
            danger: true,
            onClick: () => remove(p),
          },
        ],
      }}
    >
      <Button size="small" type="text" icon={<DownOutlined />} aria-label={t('dashboard.pageMenu')} data-testid="page-menu" />
    </Dropdown>
  );

  if (pages.isLoading) return <Skeleton active />;
  const newPage = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setNaming('new')}
      disabled={list.length >= DASHBOARD_MAX_PAGES}
      data-testid="page-add"
    >
      {t('dashboard.newPage')}
    </Button>
  );
  return (
    <Panel
      title={t('dashboard.heading')}
      extra={
        list.length > 0 && (
          <Flex gap={8} align="center">
            {current && pageMenu(current)}
            {newPage}
          </Flex>
        )
      }
      data-testid="dashboard"
    >
      {list.length === 0 ? (
        <Empty description={t('dashboard.noPages')}>{newPage}</Empty>
      ) : (
        <Tabs
          activeKey={String(current?.id)}
          onChange={(key) => {
            const p = list.find((x) => String(x.id) === key);
            if (p) show(p);
          }}
          destroyOnHidden
          items={list.map((p) => ({
            key: String(p.id),
            label: <span data-testid={`page-tab-${p.position}`}>{p.name}</span>,
            children: <PageGrid page={p} />,
          }))}
        />
      )}
      {namingWanted.current && (
        <Suspense fallback={null}>
          <PageNameModal
            open={naming !== null}
            initial={naming && naming !== 'new' ? naming.name : ''}
            onClose={() => setNaming(null)}
            onDone={onNamed}
          />
        </Suspense>
      )}
    </Panel>
  );
}

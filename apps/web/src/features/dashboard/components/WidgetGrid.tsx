/**
 * The dashboard's draggable grid from 768 px up (react-grid-layout): the widgets on 12 columns, dragged by their
 * header and resized from their corner; `onLayoutDone` gets the layout when a drag or resize ends. Loaded by
 * DashboardPage.tsx only at that width: a phone stacks the widgets without it.
 */
import { DASHBOARD_COLUMNS, type TWidget } from '@tessera/contracts';
import type { ReactNode } from 'react';
import ReactGridLayout, { type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { MARGIN_PX, ROW_PX } from './gridSize';

/**
 * Props: the grid's width (px), the widgets, each widget's grid key (stable across the save that gives a new widget its
 * id), how one is framed, and what to do when a drag or resize ends (layout items named by widget id).
 */
export interface TWidgetGridProps {
  width: number;
  widgets: TWidget[];
  keyOf: (widget: TWidget) => string;
  frame: (widget: TWidget) => ReactNode;
  onLayoutDone: (layout: Layout) => void;
}

/** The widgets on the draggable, resizable grid. */
export default function WidgetGrid({ width, widgets, keyOf, frame, onLayoutDone }: TWidgetGridProps) {
  const idOfKey = new Map(widgets.map((w) => [keyOf(w), String(w.id)]));
  const done = (layout: Layout) => onLayoutDone(layout.map((item) => ({ ...item, i: idOfKey.get(item.i) ?? item.i })));
  return (
    <ReactGridLayout
      width={width}
      layout={widgets.map((w) => ({ i: keyOf(w), ...w.layout, minW: 2, minH: 2 }))}
      gridConfig={{ cols: DASHBOARD_COLUMNS, rowHeight: ROW_PX, margin: [MARGIN_PX, MARGIN_PX], containerPadding: [0, 0] }}
      dragConfig={{ enabled: true, handle: '.widget-drag' }}
      resizeConfig={{ enabled: true, handles: ['se'] }}
      onDragStop={done}
      onResizeStop={done}
    >
      {widgets.map((w) => (
        <div key={keyOf(w)} data-testid={`grid-item-${w.id}`}>
          {frame(w)}
        </div>
      ))}
    </ReactGridLayout>
  );
}

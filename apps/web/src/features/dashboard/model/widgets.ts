/**
 * Widget bookkeeping of the dashboard page (docs/dashboard.md "Widgets"): the default size and parameter of each
 * type, where a new widget goes, and the conversion between stored widgets and the grid's layout items.
 */
import { DASHBOARD_COLUMNS, type TWidget, type TWidgetInput, type TWidgetLayout, type TWidgetType } from '@tessera/contracts';

/** Default grid size (columns × rows of 40 px) of each widget type. */
export const WIDGET_SIZES: Record<TWidgetType, { w: number; h: number }> = {
  latest: { w: 3, h: 3 },
  gauge: { w: 3, h: 5 },
  line: { w: 6, h: 7 },
  bar: { w: 6, h: 7 },
  status: { w: 4, h: 5 },
  alerts: { w: 6, h: 7 },
  devices: { w: 6, h: 6 },
  platform: { w: 4, h: 5 },
};

/** The place of a new widget of `type`: the first free spot of its default size, row by row from the top left. */
export function placeNew(type: TWidgetType, widgets: readonly Pick<TWidget, 'layout'>[]): TWidgetLayout {
  const bottom = widgets.reduce((y, w) => Math.max(y, w.layout.y + w.layout.h), 0);
  const { w, h } = WIDGET_SIZES[type];
  const overlaps = (x: number, y: number) =>
    widgets.some((o) => x < o.layout.x + o.layout.w && o.layout.x < x + w && y < o.layout.y + o.layout.h && o.layout.y < y + h);
  for (let y = 0; y < bottom; y += 1) {
    for (let x = 0; x + w <= DASHBOARD_COLUMNS; x += 1) if (!overlaps(x, y)) return { x, y, w, h };
  }
  return { x: 0, y: bottom, w: Math.min(w, DASHBOARD_COLUMNS), h };
}

/** A grid layout item (react-grid-layout) as the grid reports it. */
export interface TGridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The widgets with the grid's new positions (items matched by id; widgets the grid did not report keep theirs). */
export function withLayout<W extends Pick<TWidget, 'id' | 'layout'>>(widgets: readonly W[], items: readonly TGridItem[]): W[] {
  const byId = new Map(items.map((item) => [item.i, item]));
  return widgets.map((w) => {
    const item = byId.get(String(w.id));
    if (!item) return w;
    return { ...w, layout: { x: Math.max(0, item.x), y: Math.max(0, item.y), w: Math.max(1, item.w), h: Math.max(1, item.h) } };
  });
}

/** True when two widget lists place every widget the same way. */
export function sameLayout(a: readonly Pick<TWidget, 'id' | 'layout'>[], b: readonly Pick<TWidget, 'id' | 'layout'>[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(b.map((w) => [w.id, w.layout]));
  return a.every((w) => {
    const l = byId.get(w.id);
    return l !== undefined && l.x === w.layout.x && l.y === w.layout.y && l.w === w.layout.w && l.h === w.layout.h;
  });
}

/**
 * The grid keys (React keys and react-grid-layout item ids) of `saved`, the server's list after a save of `shown`:
 * stored widgets keep the key they had; a widget that was new in `shown` (negative id) keeps its key under the id the
 * server gave it, paired in order. react-grid-layout renders a child only once its own layout holds the child's key,
 * which it learns a render later: a key that changed would blink the widget out of the grid for that render.
 */
export function carryGridKeys(
  shown: readonly Pick<TWidget, 'id'>[],
  saved: readonly Pick<TWidget, 'id'>[],
  keys: ReadonlyMap<number, string>,
): Map<number, string> {
  const keyOf = (id: number) => keys.get(id) ?? String(id);
  const shownIds = new Set(shown.map((w) => w.id));
  const unsaved = shown.filter((w) => w.id < 0);
  const next = new Map<number, string>();
  for (const w of saved) {
    if (shownIds.has(w.id)) next.set(w.id, keyOf(w.id));
    else {
      const was = unsaved.shift();
      next.set(w.id, was ? keyOf(was.id) : String(w.id));
    }
  }
  return next;
}

/** The save body of `widgets`: stored ones by id, the rest (negative ids, made in the page) as new. */
export function toSave(widgets: readonly TWidget[]): TWidgetInput[] {
  return widgets.map((w) => ({
    ...(w.id > 0 ? { id: w.id, new: false } : { new: true }),
    type: w.type,
    title: w.title,
    parameter: w.parameter,
    layout: w.layout,
  }));
}

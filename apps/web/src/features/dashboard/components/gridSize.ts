/** The dashboard grid's measures (px), shared by the page's stacked column and the draggable grid. */

/** Height of one grid row. */
export const ROW_PX = 40;
/** Gap between widgets, across and down. */
export const MARGIN_PX = 12;

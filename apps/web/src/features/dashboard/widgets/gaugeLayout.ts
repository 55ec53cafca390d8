/**
 * Where a gauge widget puts its scale and its value so nothing overlaps: an arc of {@link GAUGE_ARC_DEG}° with as many
 * tick labels as fit along it at the label font (fewer in a small widget), and the value below the arc's two ends,
 * never over the first and last labels. Sizes in px; ECharts draws the gauge in a square of the widget's height.
 */

/** The arc, from `GAUGE_START_DEG` clockwise to `GAUGE_END_DEG` (ECharts' angles: 0 = 3 o'clock, counter-clockwise). */
export const GAUGE_START_DEG = 210;
export const GAUGE_END_DEG = -30;
export const GAUGE_ARC_DEG = GAUGE_START_DEG - GAUGE_END_DEG;
/** Radius of the arc, as a share of half the widget's height. */
export const GAUGE_RADIUS_SHARE = 0.9;
/** Width of the coloured arc, and the labels' distance inside it. */
export const GAUGE_AXIS_WIDTH = 10;
export const GAUGE_LABEL_DISTANCE = 14;
export const GAUGE_LABEL_FONT = 11;
export const GAUGE_VALUE_FONT = 16;
/** Where the value sits: this share of the radius below the centre (the arc's ends are at sin(30°) = 0.5 of it). */
export const GAUGE_VALUE_OFFSET = 0.68;
/** Free space wanted between two labels. */
const LABEL_GAP = 8;
/** Average width of a digit or point, as a share of the font size. */
const CHAR_WIDTH = 0.62;

/** A tick value as its label: at most 2 decimals, no trailing zeros. */
export function gaugeLabel(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** The radius (px) the labels' centres lie on, in a widget `heightPx` high. */
export function gaugeLabelRadius(heightPx: number): number {
  return (heightPx / 2) * GAUGE_RADIUS_SHARE - GAUGE_AXIS_WIDTH - GAUGE_LABEL_DISTANCE;
}

/** The labels of `splitNumber` equal steps from `min` to `max`. */
export function gaugeLabels(min: number, max: number, splitNumber: number): string[] {
  return Array.from({ length: splitNumber + 1 }, (_, i) => gaugeLabel(min + ((max - min) * i) / splitNumber));
}

/** The most steps (2…10) whose labels fit side by side along the arc of a widget `heightPx` high. */
export function gaugeSplitNumber(heightPx: number, min: number, max: number): number {
  const arcPx = gaugeLabelRadius(heightPx) * ((GAUGE_ARC_DEG * Math.PI) / 180);
  for (let n = 10; n > 2; n -= 1) {
    const widest = Math.max(...gaugeLabels(min, max, n).map((l) => l.length)) * GAUGE_LABEL_FONT * CHAR_WIDTH;
    if (arcPx / n >= widest + LABEL_GAP) return n;
  }
  return 2;
}

import { describe, expect, it } from 'vitest';
import {
  GAUGE_ARC_DEG,
  GAUGE_LABEL_FONT,
  GAUGE_VALUE_FONT,
  GAUGE_VALUE_OFFSET,
  GAUGE_RADIUS_SHARE,
  gaugeLabel,
  gaugeLabelRadius,
  gaugeLabels,
  gaugeSplitNumber,
} from './gaugeLayout';

/** Centres of the labels (px from the gauge's centre, y down) and their half widths. */
function labelBoxes(height: number, min: number, max: number, n: number) {
  const r = gaugeLabelRadius(height);
  return gaugeLabels(min, max, n).map((text, i) => {
    const deg = 210 - (GAUGE_ARC_DEG * i) / n;
    const rad = (deg * Math.PI) / 180;
    return { x: r * Math.cos(rad), y: -r * Math.sin(rad), w: (text.length * GAUGE_LABEL_FONT * 0.62) / 2, h: GAUGE_LABEL_FONT / 2 };
  });
}
const overlap = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
  Math.abs(a.x - b.x) < a.w + b.w && Math.abs(a.y - b.y) < a.h + b.h;

describe('gauge layout', () => {
  it('labels ticks with at most two decimals', () => {
    expect(gaugeLabel(1.2000000001)).toBe('1.2');
    expect(gaugeLabel(0.375)).toBe('0.38');
    expect(gaugeLabel(100)).toBe('100');
  });

  for (const [height, min, max] of [
    [160, 0, 3],
    [200, 0, 3],
    [240, 0, 100],
    [320, -40, 125],
    [200, 0, 1000],
  ] as const) {
    it(`keeps every tick label apart and clear of the value (${height} px, ${min}…${max})`, () => {
      const n = gaugeSplitNumber(height, min, max);
      const boxes = labelBoxes(height, min, max, n);
      for (let i = 1; i < boxes.length; i += 1) expect(overlap(boxes[i - 1], boxes[i]), `labels ${i - 1} and ${i}`).toBe(false);
      const radius = (height / 2) * GAUGE_RADIUS_SHARE;
      const value = { x: 0, y: radius * GAUGE_VALUE_OFFSET, w: 40, h: GAUGE_VALUE_FONT / 2 };
      for (const b of boxes) expect(overlap(b, value)).toBe(false);
    });
  }
});

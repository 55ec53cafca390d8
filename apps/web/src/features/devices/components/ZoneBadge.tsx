/** The ISO 10816-3 zone letter, white on its colour (A green, B cyan, C amber, D red); `data-zone` carries the letter for tests. */
import type { TVibrationZone } from '@tessera/contracts';
import { Tag } from 'antd';
import { ZONE_COLORS } from '../model/motorHealthOption';

/** Props: the zone, the test id, and whether to draw it large (the latest reading) or inline (a table cell). */
export interface TZoneBadgeProps {
  zone: TVibrationZone;
  testId: string;
  large?: boolean;
}

/** One zone badge. */
export function ZoneBadge({ zone, testId, large = false }: TZoneBadgeProps) {
  const size = large ? { fontSize: 28, lineHeight: '40px', paddingInline: 14 } : {};
  return (
    <Tag
      color={ZONE_COLORS[zone]}
      variant="solid"
      data-testid={testId}
      data-zone={zone}
      style={{ fontWeight: 600, marginInlineEnd: 0, ...size }}
    >
      {zone}
    </Tag>
  );
}

/** The hours-per-zone table of the motor-health tab: each zone's hours and its share of the time with data. */
import { type THoursByZone, type TVibrationZone, VIBRATION_ZONES } from '@tessera/contracts';

/** One row: the zone, its hours and its share (0–1) of the hours with data (0 when there are none). */
export interface TZoneHoursRow {
  zone: TVibrationZone;
  hours: number;
  share: number;
}

/** The rows A → D of `hours`. */
export function zoneHoursRows(hours: THoursByZone): TZoneHoursRow[] {
  const total = VIBRATION_ZONES.reduce((sum, zone) => sum + hours[zone], 0);
  return VIBRATION_ZONES.map((zone) => ({ zone, hours: hours[zone], share: total > 0 ? hours[zone] / total : 0 }));
}

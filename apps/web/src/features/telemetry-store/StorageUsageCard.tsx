/**
 * Telemetry on disk (docs/decisions/telemetry-storage.md "Sizes"): points stored, bytes of raw hot rows, compressed
 * chunks and rollups, bytes per point and growth per day — of a project (System tab, with its last expiry) or of
 * the platform (admin).
 */
import type { TStorageUsage } from '@tessera/contracts';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatLocalTime } from '../devices/model/format';
import { formatBytes } from './format';

/** The last expiry, when there was one. */
export interface TExpiryShown {
  at: number;
  raw_points_removed: number;
  rollup_rows_removed: number;
}

const num = (n: number) => n.toLocaleString('en-US');

/** `usage` as a list; `lastExpiry` undefined hides the expiry line, null shows "not yet". */
export function StorageUsageCard({ usage, lastExpiry }: { usage: TStorageUsage; lastExpiry?: TExpiryShown | null }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`telemetryStore.usage.${key}`);
  return (
    <Descriptions column={1} size="small" bordered data-testid="storage-usage">
      <Descriptions.Item label={k('points')}>
        <span data-testid="storage-points">{num(usage.points)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={k('rawHot')}>
        <span data-testid="storage-raw-hot">{formatBytes(usage.bytes.raw_hot)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={k('rawCompressed')}>
        <span data-testid="storage-raw-compressed">{formatBytes(usage.bytes.raw_compressed)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={k('rollups')}>
        <span data-testid="storage-rollups">{formatBytes(usage.bytes.rollups)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={k('total')}>
        <b data-testid="storage-total">{formatBytes(usage.bytes.total)}</b>
      </Descriptions.Item>
      <Descriptions.Item label={k('bytesPerPoint')}>
        <span data-testid="storage-bytes-per-point">{usage.bytes_per_point === null ? '—' : usage.bytes_per_point.toFixed(1)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={k('growth')}>
        <span data-testid="storage-growth">
          {usage.growth_per_day === null
            ? k('noGrowth')
            : t('telemetryStore.usage.growthValue', {
                points: num(usage.growth_per_day.points),
                bytes: formatBytes(usage.growth_per_day.bytes),
              })}
        </span>
      </Descriptions.Item>
      {lastExpiry !== undefined && (
        <Descriptions.Item label={k('lastExpiry')}>
          <span data-testid="storage-last-expiry">
            {lastExpiry === null
              ? k('noExpiry')
              : t('telemetryStore.usage.expiryValue', {
                  at: formatLocalTime(lastExpiry.at),
                  points: num(lastExpiry.raw_points_removed),
                  rows: num(lastExpiry.rollup_rows_removed),
                })}
          </span>
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

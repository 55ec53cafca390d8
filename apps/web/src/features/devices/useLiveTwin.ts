/**
 * Keeps a device's cached twin and online state current from the live channel (spec §3 "Live messages"):
 * telemetry-status re-renders on each message with no reload.
 */
import type { TDeviceDetail, TDeviceTwin, TStatusGroup } from '@tessera/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveDevice } from '../../lib/live';
import { deviceKeys } from './api';
import { mergeLiveMessage } from './model/twin';

/** Subscribes to `live/devices/{tangramId}` while mounted and merges each message into the query cache. */
export function useLiveTwin(tangramId: string, groups: readonly TStatusGroup[] | undefined): void {
  const queryClient = useQueryClient();
  useLiveDevice(groups ? tangramId : undefined, (message) => {
    const now = Date.now();
    queryClient.setQueryData<TDeviceTwin | null>(deviceKeys.twin(tangramId), (twin) =>
      mergeLiveMessage(twin ?? undefined, message, tangramId, groups ?? [], now),
    );
    // A message means the server just heard from the device.
    queryClient.setQueryData<TDeviceDetail>(deviceKeys.detail(tangramId), (d) => (d ? { ...d, online: true, last_seen_at: now } : d));
  });
}

/**
 * A widget's device: its detail (name, sensors with units, status groups — a 404 means the viewer may no longer see
 * it, which the widget says instead of breaking the page) and its twin kept current from the live channel.
 */
import { useDeviceDetail, useDeviceTwin } from '../../devices/api';
import { useLiveTwin } from '../../devices/useLiveTwin';

/** The device, its twin, and whether it is gone from the viewer's sight. */
export function useWidgetDevice(tangramId: string) {
  const detail = useDeviceDetail(tangramId);
  const twin = useDeviceTwin(tangramId);
  useLiveTwin(tangramId, detail.data?.status_groups);
  const status = (detail.error as { status?: number } | null)?.status;
  return { detail: detail.data, twin: twin.data, gone: status === 404 || status === 403, loading: detail.isLoading };
}

/**
 * A device named by its name rather than its serial: read from the device cache the device pages share (GET device
 * v2, quiet: a device the viewer may no longer see shows the end of its id instead, without an error dialog).
 */
import { useQuery } from '@tanstack/react-query';
import { paths, type TDeviceDetail } from '@tessera/contracts';
import { deviceKeys } from '../features/devices/api';
import { http } from '../lib/http';

/** How many characters of the id stand for a device whose name cannot be read (its serial number). */
const ID_TAIL = 12;

/** The device's name; the id's end while loading or when it cannot be read. */
export function DeviceName({ tangramId, testId }: { tangramId: string; testId?: string }) {
  const detail = useQuery({
    queryKey: deviceKeys.detail(tangramId),
    queryFn: () => http.get<TDeviceDetail>(paths.deviceV2(tangramId), undefined, { quiet: true }),
    staleTime: 60_000,
  });
  return <span data-testid={testId}>{detail.data?.name ?? tangramId.slice(-ID_TAIL)}</span>;
}

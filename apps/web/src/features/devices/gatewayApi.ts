/**
 * Data layer of gateways (ThingsBoard's gateway API; docs/decisions/device-apis.md "Gateway"): mark a device as a
 * gateway or not (PUT, quiet: the switch shows the failure), and the devices seen behind one.
 */
import { paths, type TDeviceGatewayState, type TGatewayChildren } from '@tessera/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { deviceKeys } from './api';

/** Query key of the devices behind gateway `tangramId`. */
export const gatewayDevicesKey = (tangramId: string) => ['devices', 'gateway-devices', tangramId] as const;

/** PUT devices/{tangramId}/gateway: the device page is read again with the new flag. */
export function useSetGatewayFlag(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (isGateway: boolean) =>
      http.put<TDeviceGatewayState>(paths.deviceGateway(tangramId), { is_gateway: isGateway }, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: deviceKeys.detail(tangramId) }),
  });
}

/** GET devices/{tangramId}/gateway/devices, read again every 10 s (devices connect and leave). */
export function useGatewayDevices(tangramId: string) {
  return useQuery({
    queryKey: gatewayDevicesKey(tangramId),
    queryFn: () => http.get<TGatewayChildren>(paths.gatewayDevices(tangramId)),
    refetchInterval: 10_000,
  });
}

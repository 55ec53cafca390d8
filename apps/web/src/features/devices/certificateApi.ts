/**
 * Data layer of a device's MQTT client certificate (docs/deployment.md "Certificate login"): GET the registered
 * fingerprint, PUT a new one, DELETE (revoke). Quiet: the dialog explains failures.
 */
import { deviceCertificatePath, type TDeviceCertificate, type TDeviceCertificateInput } from '@tessera/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

const quiet = { quiet: true };

/** Query key of a device's certificate. */
export const certificateKey = (tangramId: string) => ['devices', 'certificate', tangramId] as const;

/** GET devices/{tangramId}/certificate while `enabled` (the dialog is open). */
export function useDeviceCertificate(tangramId: string, enabled: boolean) {
  return useQuery({
    queryKey: certificateKey(tangramId),
    queryFn: () => http.get<TDeviceCertificate>(deviceCertificatePath(tangramId), undefined, quiet),
    enabled,
  });
}

/** PUT devices/{tangramId}/certificate: registers a fingerprint (the previous certificate stops working). */
export function useRegisterDeviceCertificate(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TDeviceCertificateInput) => http.put<TDeviceCertificate>(deviceCertificatePath(tangramId), input, quiet),
    onSuccess: (answer) => qc.setQueryData(certificateKey(tangramId), answer),
  });
}

/** DELETE devices/{tangramId}/certificate: revokes it (a device connected with it is dropped). */
export function useRevokeDeviceCertificate(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.del<void>(deviceCertificatePath(tangramId), quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: certificateKey(tangramId) }),
  });
}

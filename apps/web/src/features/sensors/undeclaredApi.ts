/**
 * Undeclared keys of the configure tab (docs/decisions/telemetry.md "Undeclared keys") as TanStack Query hooks: the
 * keys offered for declaration, declaring one as a sensor, discarding one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type TDeclareUndeclaredKey, type TSensorSaveResult, type TUndeclaredKeyList, undeclaredKeyPaths } from '@tessera/contracts';
import { http } from '../../lib/http';
import { sensorKeys } from './api';

/** Query key of project `projectId`'s offered keys, beside its sensors. */
export const undeclaredKeysKey = (projectId: number) => [...sensorKeys.ofProject(projectId), 'undeclared'] as const;

/** GET projects/{id}/undeclared-keys. */
export function useUndeclaredKeys(projectId: number) {
  return useQuery({
    queryKey: undeclaredKeysKey(projectId),
    queryFn: () => http.get<TUndeclaredKeyList>(undeclaredKeyPaths.list(projectId)),
  });
}

/** POST …/undeclared-keys/declare: the key becomes a sensor (the sensors list and the offer are read again). */
export function useDeclareUndeclaredKey(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeclareUndeclaredKey) => http.post<TSensorSaveResult>(undeclaredKeyPaths.declare(projectId), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: sensorKeys.ofProject(projectId) }),
  });
}

/** POST …/undeclared-keys/discard. */
export function useDiscardUndeclaredKey(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => http.post<void>(undeclaredKeyPaths.discard(projectId), { key }),
    onSuccess: () => qc.invalidateQueries({ queryKey: undeclaredKeysKey(projectId) }),
  });
}

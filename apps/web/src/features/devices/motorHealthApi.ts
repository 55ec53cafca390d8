/**
 * Data layer of the motor-health tab (docs/decisions/motor-health.md): GET devices/{tangramId}/motor-health as a
 * TanStack Query hook.
 */
import { motorHealthPath, type TMotorHealth, type TMotorHealthQuery } from '@tessera/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** Query keys of the motor-health tab. */
export const motorHealthKeys = {
  health: (tangramId: string, q: TMotorHealthQuery) => ['devices', 'motor-health', tangramId, q] as const,
};

/** The device's motor health over `q`'s range (the previous answer stays shown while a new range loads). */
export function useMotorHealth(tangramId: string, q: TMotorHealthQuery) {
  return useQuery({
    queryKey: motorHealthKeys.health(tangramId, q),
    queryFn: () => http.get<TMotorHealth>(motorHealthPath(tangramId), { ...q }),
    placeholderData: keepPreviousData,
  });
}

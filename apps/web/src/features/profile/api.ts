/** Profile and API-key calls (spec §7 profile, security/api-key), as TanStack Query hooks over the one client. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paths, type TApiKeyCreate, type TApiKeyCreated, type TProfile, type TProfileUpdate } from '@tessera/contracts';
import type { z } from 'zod';
import type { ZApiKeyList } from '@tessera/contracts';
import { http } from '../../lib/http';

const PROFILE = ['profile'] as const;
const API_KEYS = ['api-keys'] as const;

/** GET profile. */
export function useProfile() {
  return useQuery({ queryKey: PROFILE, queryFn: () => http.get<TProfile>(paths.profile) });
}

/** PUT profile (name, language). */
export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProfileUpdate) => http.put<TProfile>(paths.profile, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: PROFILE }),
  });
}

/** GET security/api-key: the account's keys (never their secrets). */
export function useApiKeys() {
  return useQuery({ queryKey: API_KEYS, queryFn: () => http.get<z.infer<typeof ZApiKeyList>>(paths.apiKeys, { limit: 200 }) });
}

/** POST security/api-key: the answer holds the full key, shown once. */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TApiKeyCreate) => http.post<TApiKeyCreated>(paths.apiKeys, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: API_KEYS }),
  });
}

/** POST security/api-key/revoke. */
export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<void>(paths.apiKeyRevoke, { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: API_KEYS }),
  });
}

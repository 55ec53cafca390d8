/** Profile and API-key calls (spec §7 profile, security/api-key), as TanStack Query hooks over the one client. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paths, type TApiKeyCreate, type TApiKeyCreated, type TProfile, type TProfileUpdate } from '@tessera/contracts';
import type { z } from 'zod';
import type { ZApiKeyList } from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the profile page. */
export const profileKeys = {
  profile: ['profile'] as const,
  apiKeys: ['api-keys'] as const,
};

/** GET profile. */
export function useProfile() {
  return useQuery({ queryKey: profileKeys.profile, queryFn: () => http.get<TProfile>(paths.profile) });
}

/** PUT profile (name, language). */
export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProfileUpdate) => http.put<TProfile>(paths.profile, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: profileKeys.profile }),
  });
}

/** GET security/api-key: the account's keys (never their secrets). */
export function useApiKeys() {
  return useQuery({ queryKey: profileKeys.apiKeys, queryFn: () => http.get<z.infer<typeof ZApiKeyList>>(paths.apiKeys, { limit: 200 }) });
}

/** POST security/api-key: the answer holds the full key, shown once. */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TApiKeyCreate) => http.post<TApiKeyCreated>(paths.apiKeys, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: profileKeys.apiKeys }),
  });
}

/** POST security/api-key/revoke. */
export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<void>(paths.apiKeyRevoke, { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: profileKeys.apiKeys }),
  });
}

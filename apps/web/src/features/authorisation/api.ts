/** Authorisation-request calls (spec §7 `/client-authz/v1`) as TanStack Query hooks over the console's HTTP client. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  authzPaths,
  type TAuthzDecisionInput,
  type TAuthzHolderList,
  type TAuthzQrCode,
  type TAuthzRequest,
  type TAuthzRequestInput,
  type TAuthzRequestList,
  type TAuthzRequestQuery,
  type TListQuery,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of authorisation requests. */
export const authzKeys = {
  all: ['authz'] as const,
  requests: (q: Partial<TAuthzRequestQuery>) => ['authz', 'requests', q] as const,
  holders: (q: TListQuery) => ['authz', 'holders', q] as const,
  qrCode: (tangramId: string) => ['authz', 'qrcode', tangramId] as const,
};

/** Pending requests are read again this often, so an owner sees new ones without reloading. */
const REQUESTS_POLL_MS = 15_000;

/** GET device-authz: requests the caller may read (a vendor: its tenant's; a user: its own), newest first. */
export function useAuthzRequests(q: Partial<TAuthzRequestQuery>) {
  return useQuery({
    queryKey: authzKeys.requests(q),
    queryFn: () => http.get<TAuthzRequestList>(authzPaths.requests, q),
    placeholderData: keepPreviousData,
    refetchInterval: REQUESTS_POLL_MS,
  });
}

/** GET users: who holds access through an allowed request (vendors). */
export function useAuthzHolders(q: TListQuery, enabled: boolean) {
  return useQuery({
    queryKey: authzKeys.holders(q),
    queryFn: () => http.get<TAuthzHolderList>(authzPaths.users, q),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET qrcode/{tangramId}: the claim code printed on a device (vendors). */
export function useQrClaim(tangramId: string | null) {
  return useQuery({
    queryKey: authzKeys.qrCode(tangramId ?? ''),
    queryFn: () => http.get<TAuthzQrCode>(authzPaths.qrCode(tangramId ?? '')),
    enabled: tangramId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** POST client: a user asks for a device or its project. Errors come back to the form (quiet). */
export function useAskAccess() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TAuthzRequestInput) => http.post<TAuthzRequest>(authzPaths.client, body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: authzKeys.all }),
  });
}

/** PUT {id}: allow, deny, revoke or cancel; every read may change (the device lists too), so all are refetched. */
export function useDecide() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: TAuthzDecisionInput & { id: number }) =>
      http.put<TAuthzRequest>(authzPaths.request(id), body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries(),
  });
}

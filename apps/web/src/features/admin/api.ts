/** Platform-admin calls (spec §7 `GET admin/account`, `POST admin/account/switch`) as TanStack Query hooks. */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { paths, type TAccountList, type TListQuery, type TTokenResponse } from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the admin pages. */
export const adminKeys = {
  accounts: (q: TListQuery) => ['admin', 'accounts', q] as const,
};

/** GET admin/account: every account of every tenant, newest first; `q` searches email, name and tenant. */
export function useAccounts(q: TListQuery) {
  return useQuery({
    queryKey: adminKeys.accounts(q),
    queryFn: () => http.get<TAccountList>(paths.adminAccounts, q),
    placeholderData: keepPreviousData,
  });
}

/** POST admin/account/switch: a token pair of the account to act as. */
export function useSwitchAccount() {
  return useMutation({
    mutationFn: (accountId: number) => http.post<TTokenResponse>(paths.adminSwitch, { account_id: accountId }, { quiet: true }),
  });
}

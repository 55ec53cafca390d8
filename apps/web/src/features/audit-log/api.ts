/** Audit log calls (`GET /frontstage/v1/audit-log`, its CSV) as TanStack Query hooks. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { paths, type TAuditPage, type TAuditQuery } from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the audit log. */
export const auditLogKeys = {
  all: ['audit-log'] as const,
  list: (q: TAuditQuery) => ['audit-log', 'list', q] as const,
};

/** A page of entries matching `q`, newest first (the previous page stays shown while the next loads). */
export function useAuditLog(q: TAuditQuery) {
  return useQuery({
    queryKey: auditLogKeys.list(q),
    queryFn: () => http.get<TAuditPage>(paths.auditLog, q),
    placeholderData: keepPreviousData,
  });
}

/** Downloads the CSV of the entries matching `q` (every page) under the server's file name. */
export function downloadAuditCsv(q: Omit<TAuditQuery, 'page' | 'limit'>): Promise<Blob> {
  return http.download(paths.auditLogDownload, q);
}

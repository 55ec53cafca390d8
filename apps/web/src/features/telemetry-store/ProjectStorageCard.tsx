/** The System tab's disk use of the project's telemetry, with its last expiry (GET projects/{id}/storage). */
import { useTranslation } from 'react-i18next';
import { useProjectStorage } from './api';
import { StorageUsageCard } from './StorageUsageCard';

/** Disk use of project `projectId`. */
export function ProjectStorageCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const storage = useProjectStorage(projectId).data;
  if (!storage) return null;
  return (
    <>
      <StorageUsageCard usage={storage.usage} lastExpiry={storage.last_expiry} />
      <p style={{ marginTop: 8, color: 'var(--ant-color-text-secondary)' }}>{t('telemetryStore.usage.estimated')}</p>
    </>
  );
}

/**
 * /project/detail/{id}/system: project settings, provisioning details, the gateway and undeclared-key settings, telemetry
 * retention and disk use, the cloud fee estimate and "copy project".
 */
import { Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useProject } from '../projects/api';
import { ProjectStorageCard } from '../telemetry-store/ProjectStorageCard';
import { RetentionCard } from '../telemetry-store/RetentionCard';
import { CopyProjectButton } from './CopyProjectButton';
import { FeeEstimateCard } from './FeeEstimateCard';
import { GatewaySettingCard } from './GatewaySettingCard';
import { ProjectSettingsForm } from './ProjectSettingsForm';
import { ProvisioningCard } from './ProvisioningCard';
import { UndeclaredKeySettingCard } from './UndeclaredKeySettingCard';

/** The system tab. */
export default function SystemTab() {
  const { t } = useTranslation();
  const projectId = Number(useParams().id);
  const project = useProject(projectId).data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('projectSettings.system.settings')} extra={project && <CopyProjectButton project={project} />}>
        {project && <ProjectSettingsForm key={project.id} project={project} />}
      </Card>
      <Card size="small" title={t('projectSettings.system.provisioning')}>
        <ProvisioningCard projectId={projectId} />
      </Card>
      <Card size="small" title={t('projectSettings.gateway.title')} data-testid="gateway-setting-card">
        <GatewaySettingCard projectId={projectId} />
      </Card>
      <Card size="small" title={t('projectSettings.undeclaredKeys.title')} data-testid="undeclared-key-setting-card">
        <UndeclaredKeySettingCard projectId={projectId} />
      </Card>
      <Card size="small" title={t('telemetryStore.retentionTitle')}>
        <RetentionCard projectId={projectId} />
      </Card>
      <Card size="small" title={t('telemetryStore.usageTitle')}>
        <ProjectStorageCard projectId={projectId} />
      </Card>
      <Card size="small" title={t('projectSettings.system.fee')}>
        <FeeEstimateCard projectId={projectId} />
      </Card>
    </Space>
  );
}

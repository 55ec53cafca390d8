/** The system tab's provisioning details (read-only): broker address, TLS, topics and how to get a secret. */
import { Alert, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProvisioning } from './api';

/** Provisioning details of project `projectId`. */
export function ProvisioningCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const p = useProvisioning(projectId).data;
  if (!p) return null;
  const code = (text: string) => (
    <Typography.Text code copyable>
      {text}
    </Typography.Text>
  );
  return (
    <>
      <Descriptions column={1} size="small" bordered data-testid="provisioning">
        <Descriptions.Item label={t('projectSettings.provisioning.broker')}>
          <span data-testid="provisioning-url">{code(p.url)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('projectSettings.provisioning.host')}>{p.host}</Descriptions.Item>
        <Descriptions.Item label={t('projectSettings.provisioning.port')}>{p.port}</Descriptions.Item>
        <Descriptions.Item label={t('projectSettings.provisioning.tls')}>
          {t(p.tls ? 'projectSettings.provisioning.tlsOn' : 'projectSettings.provisioning.tlsOff')}
        </Descriptions.Item>
        <Descriptions.Item label={t('projectSettings.provisioning.credentials')}>
          {t('projectSettings.provisioning.credentialsText')}
        </Descriptions.Item>
        {Object.entries(p.topics).map(([name, topic]) => (
          <Descriptions.Item key={name} label={t(`projectSettings.provisioning.topics.${name}`)}>
            {code(topic)}
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Alert
        style={{ marginTop: 12 }}
        type="info"
        showIcon
        message={t(p.source === 'config' ? 'projectSettings.provisioning.fromConfig' : 'projectSettings.provisioning.fromRequest')}
        description={t('projectSettings.provisioning.secretHow')}
      />
    </>
  );
}

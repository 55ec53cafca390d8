/**
 * Deploying a revision (contracts model-deployments.ts): the revision shown (number, file, size, SHA-256), then the
 * devices — chosen one by one, or every device a project has now. A deployment answers its rollout, whose page opens;
 * the server's refusals (a project without devices, too many devices, devices not the tenant's) land on the field.
 */
import { MAX_ROLLOUT_DEVICES, type TAiModelRevision } from '@tessera/contracts';
import { App, Button, Descriptions, Flex, Form, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormDrawer } from '../../../components/FormDrawer';
import { formatBytes } from '../../../lib/formatBytes';
import type { HttpError } from '../../../lib/http';
import { confirmDiscard } from '../../../lib/useUnsavedChangesPrompt';
import { useProjectOptions } from '../../devices/api';
import { canDeploy, deployBodyOf, deployRefusal, EMPTY_DEPLOY_FORM, type TDeployForm } from '../model/deployForm';
import { rolloutPath } from '../model/paths';
import { shortSha } from '../model/rolloutProgress';
import { useDeployRevision } from '../rolloutApi';
import { DeployDeviceSelect } from './DeployDeviceSelect';

interface TProps {
  modelId: number;
  /** The revision to deploy; undefined = closed. */
  revision: TAiModelRevision | undefined;
  onClose: () => void;
}

/** The form inside the drawer. */
function DeployForm({ modelId, revision, onClose }: { modelId: number; revision: TAiModelRevision; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<TDeployForm>();
  const deploy = useDeployRevision(modelId);
  const projects = useProjectOptions(true);
  const values = Form.useWatch([], form) as TDeployForm | undefined;
  const target = values?.target ?? EMPTY_DEPLOY_FORM.target;
  const ready = canDeploy(values);

  const close = () => (ready ? confirmDiscard(modal, t, onClose) : onClose());
  const refused = (err: HttpError, v: TDeployForm) => {
    const refusal = deployRefusal(err, v.target);
    const text = refusal ? t(refusal.key, { max: MAX_ROLLOUT_DEVICES }) : err.message;
    if (refusal?.field) return form.setFields([{ name: refusal.field, errors: [text] }]);
    modal.error({ title: t('aiModels.deploy.failed'), content: text });
  };
  const submit = (v: TDeployForm) =>
    deploy.mutate(
      { revision: revision.revision, body: deployBodyOf(v) },
      {
        onSuccess: (rollout) => {
          onClose();
          navigate(rolloutPath(rollout));
        },
        onError: (e) => refused(e as HttpError, v),
      },
    );

  return (
    <Flex vertical gap={16}>
      <Descriptions column={1} size="small" bordered data-testid="deploy-revision">
        <Descriptions.Item label={t('aiModels.deploy.revision')}>
          {t('aiModels.revisions.number', { revision: revision.revision })}
        </Descriptions.Item>
        <Descriptions.Item label={t('aiModels.revisions.file')}>{revision.file_name}</Descriptions.Item>
        <Descriptions.Item label={t('aiModels.revisions.size')}>{formatBytes(revision.size_bytes, i18n.language)}</Descriptions.Item>
        <Descriptions.Item label={t('aiModels.revisions.sha256')}>
          <Typography.Text code copyable={{ text: revision.sha256 }} title={revision.sha256}>
            {shortSha(revision.sha256)}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Form<TDeployForm> form={form} layout="vertical" initialValues={EMPTY_DEPLOY_FORM} onFinish={submit}>
        <Form.Item name="target" label={t('aiModels.deploy.target')}>
          <Radio.Group optionType="button">
            <Radio.Button value="devices">
              <span data-testid="deploy-target-devices">{t('aiModels.deploy.targetDevices')}</span>
            </Radio.Button>
            <Radio.Button value="project">
              <span data-testid="deploy-target-project">{t('aiModels.deploy.targetProject')}</span>
            </Radio.Button>
          </Radio.Group>
        </Form.Item>
        {target === 'devices' ? (
          <Form.Item
            name="device_ids"
            label={t('aiModels.deploy.devices')}
            rules={[{ type: 'array', required: true, min: 1, message: t('aiModels.deploy.devicesRequired') }]}
          >
            <DeployDeviceSelect />
          </Form.Item>
        ) : (
          <Form.Item
            name="project_id"
            label={t('aiModels.deploy.project')}
            extra={t('aiModels.deploy.projectHint')}
            rules={[{ required: true, message: t('aiModels.deploy.projectRequired') }]}
          >
            <Select<number>
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('aiModels.deploy.projectPlaceholder')}
              loading={projects.isLoading}
              options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              data-testid="deploy-project"
            />
          </Form.Item>
        )}
        <Flex justify="end" gap={8} style={{ marginTop: 24 }}>
          <Button onClick={close} data-testid="deploy-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={deploy.isPending} disabled={!ready} data-testid="deploy-submit">
            {t('aiModels.deploy.submit')}
          </Button>
        </Flex>
      </Form>
    </Flex>
  );
}

/** The drawer deploying `revision` of model `modelId`. */
export function DeployDrawer({ modelId, revision, onClose }: TProps) {
  const { t } = useTranslation();
  return (
    <FormDrawer open={revision !== undefined} onClose={onClose} title={t('aiModels.deploy.title', { revision: revision?.revision ?? '' })}>
      {revision && <DeployForm key={revision.id} modelId={modelId} revision={revision} onClose={onClose} />}
    </FormDrawer>
  );
}

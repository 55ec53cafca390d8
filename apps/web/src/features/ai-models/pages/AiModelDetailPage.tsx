/**
 * /ai-model/detail/{id} (feature code 13:1; docs/decisions/ai.md): one model — framework, hardware module, what goes in
 * and comes out — with edit and delete, the upload of its next revision (progress bar, cancel), its revisions
 * (deploy, download, delete) and its deployments. Another organisation's model, or a missing one, says so.
 */
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { AiModelErrorCode, type TAiModelRevision } from '@tessera/contracts';
import { App, Button, Card, Descriptions, Flex, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { HttpError } from '../../../lib/http';
import { formatLocalTime } from '../../devices/model/format';
import { useAiModel, useDeleteAiModel } from '../api';
import { AiModelDrawer } from '../components/AiModelDrawer';
import { DeployDrawer } from '../components/DeployDrawer';
import { RevisionTable } from '../components/RevisionTable';
import { RevisionUpload } from '../components/RevisionUpload';
import { RolloutTable } from '../components/RolloutTable';

const multiline = (text: string) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{text || '—'}</Typography.Text>;

/** A model's page. */
export default function AiModelDetailPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const model = useAiModel(id);
  const remove = useDeleteAiModel();
  const [editing, setEditing] = useState(false);
  const [deploying, setDeploying] = useState<TAiModelRevision>();
  const back = (
    <Link to="/ai-model/list" data-testid="ai-model-back">
      <ArrowLeftOutlined /> {t('aiModels.back')}
    </Link>
  );

  if (model.isLoading) return <Spin />;
  if (!model.data) return <Result status="404" subTitle={t('aiModels.notFound')} extra={back} data-testid="ai-model-not-found" />;
  const m = model.data;
  const confirmDelete = () =>
    modal.confirm({
      title: t('aiModels.deleteTitle', { name: m.name }),
      content: t('aiModels.deleteContent', { count: m.revision_count }),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'ai-model-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(m.id).then(
          () => {
            void message.success(t('aiModels.deleted'));
            navigate('/ai-model/list');
          },
          (e: HttpError) => {
            modal.error({
              title: e.code === AiModelErrorCode.Deployed ? t('aiModels.deployedTitle') : t('aiModels.deleteFailed'),
              content: e.message,
            });
          },
        ),
    });

  return (
    <Flex vertical gap={16}>
      {back}
      <Card
        title={<span data-testid="ai-model-title">{m.name}</span>}
        extra={
          <Space>
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="ai-model-edit">
              {t('aiModels.edit')}
            </Button>
            <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} data-testid="ai-model-delete">
              {t('aiModels.deleteModel')}
            </Button>
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('aiModels.framework')}>{t(`aiModels.frameworks.${m.framework}`)}</Descriptions.Item>
          <Descriptions.Item label={t('aiModels.module')}>{`${m.module_name} (${m.module_model_number})`}</Descriptions.Item>
          <Descriptions.Item label={t('common.description')} span={2}>
            {multiline(m.description)}
          </Descriptions.Item>
          <Descriptions.Item label={t('aiModels.inputDescription')}>{multiline(m.input_description)}</Descriptions.Item>
          <Descriptions.Item label={t('aiModels.outputDescription')}>{multiline(m.output_description)}</Descriptions.Item>
          <Descriptions.Item label={t('aiModels.updatedAt')}>{formatLocalTime(m.updated_at)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('aiModels.revisions.title')}>
        <Flex vertical gap={16}>
          <RevisionUpload modelId={m.id} />
          <RevisionTable modelId={m.id} onDeploy={setDeploying} />
        </Flex>
      </Card>
      <Card title={t('aiModels.rollouts.title')} data-testid="rollouts-card">
        <RolloutTable modelId={m.id} />
      </Card>
      <AiModelDrawer model={editing ? m : undefined} onClose={() => setEditing(false)} />
      <DeployDrawer modelId={m.id} revision={deploying} onClose={() => setDeploying(undefined)} />
    </Flex>
  );
}

/**
 * /ai-model/detail/{id}/rollouts/{rolloutId} (contracts model-deployments.ts): one deployment of a revision — the
 * model, revision, file, SHA-256, who deployed it and when; the overall bar and the count of each state; its devices.
 * It reloads every second until no device is pending or downloading. "Retry failed" sends the failed devices their
 * model again; "Remove from devices" (confirmed) takes the revision off the devices that still hold it and returns
 * to the model.
 */
import { ArrowLeftOutlined, DeleteOutlined, RedoOutlined } from '@ant-design/icons';
import { MODEL_DEPLOYMENT_STATES } from '@tessera/contracts';
import { App, Badge, Button, Card, Descriptions, Flex, Result, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatBytes } from '../../../lib/formatBytes';
import type { HttpError } from '../../../lib/http';
import { formatLocalTime } from '../../devices/model/format';
import { RolloutDeviceTable } from '../components/RolloutDeviceTable';
import { RolloutProgressBar, RolloutStateTag } from '../components/RolloutProgress';
import { aiModelPath } from '../model/paths';
import { isRolloutSettled, rolloutSummary, shortSha } from '../model/rolloutProgress';
import { useRemoveRollout, useRetryRollout, useRollout } from '../rolloutApi';

/** A rollout's page. */
export default function RolloutPage() {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const params = useParams();
  const rolloutId = Number(params.rolloutId);
  const rollout = useRollout(rolloutId);
  const retry = useRetryRollout(rolloutId);
  const remove = useRemoveRollout(rolloutId);
  const modelId = rollout.data?.model_id ?? Number(params.id);
  const back = (
    <Link to={aiModelPath(modelId)} data-testid="rollout-back">
      <ArrowLeftOutlined />{' '}
      {rollout.data ? t('aiModels.rollout.back', { name: rollout.data.model_name }) : t('aiModels.rollout.backToModel')}
    </Link>
  );

  if (rollout.isLoading) return <Spin />;
  if (!rollout.data) return <Result status="404" subTitle={t('aiModels.rollout.notFound')} extra={back} data-testid="rollout-not-found" />;
  const r = rollout.data;
  const summary = rolloutSummary(r.counts);
  const moving = !isRolloutSettled(r.counts);

  const sendRetry = () =>
    retry.mutate(undefined, {
      onSuccess: ({ retried }) => void message.success(t('aiModels.rollout.retried', { n: retried })),
      onError: (e) => modal.error({ title: t('aiModels.rollout.retryFailed'), content: e.message }),
    });
  const confirmRemove = () =>
    modal.confirm({
      title: t('aiModels.rollout.removeTitle', { revision: r.revision }),
      content: t('aiModels.rollout.removeContent'),
      okText: t('aiModels.rollout.remove'),
      okButtonProps: { danger: true, 'data-testid': 'rollout-remove-confirm' },
      onOk: () =>
        remove.mutateAsync().then(
          () => {
            void message.success(t('aiModels.rollout.removed'));
            navigate(aiModelPath(r.model_id));
          },
          (e: HttpError) => {
            modal.error({ title: t('aiModels.rollout.removeFailed'), content: e.message });
          },
        ),
    });

  return (
    <Flex vertical gap={16}>
      {back}
      <Card
        title={<span data-testid="rollout-title">{t('aiModels.rollout.title', { name: r.model_name, revision: r.revision })}</span>}
        extra={
          <Space wrap>
            <Button
              icon={<RedoOutlined />}
              onClick={sendRetry}
              disabled={r.counts.failed === 0}
              loading={retry.isPending}
              data-testid="rollout-retry"
            >
              {t('aiModels.rollout.retry', { n: r.counts.failed })}
            </Button>
            <Button danger icon={<DeleteOutlined />} onClick={confirmRemove} disabled={summary.target === 0} data-testid="rollout-remove">
              {t('aiModels.rollout.remove')}
            </Button>
          </Space>
        }
      >
        <Flex vertical gap={16}>
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label={t('aiModels.rollout.model')}>
              <Link to={aiModelPath(r.model_id)}>{r.model_name}</Link>
            </Descriptions.Item>
            <Descriptions.Item label={t('aiModels.rollout.revision')}>
              {t('aiModels.revisions.number', { revision: r.revision })}
            </Descriptions.Item>
            <Descriptions.Item label={t('aiModels.revisions.file')}>
              {`${r.file_name} (${formatBytes(r.size_bytes, i18n.language)})`}
            </Descriptions.Item>
            <Descriptions.Item label={t('aiModels.revisions.sha256')}>
              <Typography.Text code copyable={{ text: r.sha256 }} title={r.sha256} data-testid="rollout-sha" data-sha256={r.sha256}>
                {shortSha(r.sha256)}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('aiModels.rollouts.createdBy')}>
              {r.created_by?.email ?? t('aiModels.revisions.removedAccount')}
            </Descriptions.Item>
            <Descriptions.Item label={t('aiModels.rollouts.createdAt')}>{formatLocalTime(r.created_at)}</Descriptions.Item>
          </Descriptions>
          <div>
            <Flex justify="space-between" align="center" wrap>
              <Typography.Text strong>{t('aiModels.rollout.overall', { n: r.device_count })}</Typography.Text>
              {moving && <Badge status="processing" text={t('aiModels.rollout.live')} data-testid="rollout-live" />}
            </Flex>
            <RolloutProgressBar counts={r.counts} testId="rollout-progress" />
          </div>
          <Flex gap={4} wrap data-testid="rollout-counts">
            {MODEL_DEPLOYMENT_STATES.map((s) => (
              <RolloutStateTag key={s} state={s} count={r.counts[s]} testId={`rollout-count-${s}`} />
            ))}
          </Flex>
        </Flex>
      </Card>
      <Card title={t('aiModels.rollout.devices')}>
        <RolloutDeviceTable rolloutId={r.id} moving={moving} />
      </Card>
    </Flex>
  );
}

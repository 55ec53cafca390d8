/**
 * A model's revisions, newest first (docs/decisions/ai.md): number, file, size, SHA-256 (copyable), notes, who uploaded
 * it and when, whether it is deployed; deploy to devices (the caller opens its drawer), download (the browser saves it
 * to disk through a one-minute link) and delete with a confirmation — not offered for a deployed revision.
 */
import { CloudUploadOutlined, DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import type { TAiModelRevision } from '@tessera/contracts';
import { App, Button, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { rowTestId } from '../../../components/rowTestId';
import { useListQuery } from '../../../components/usePagedQuery';
import { formatBytes } from '../../../lib/formatBytes';
import type { HttpError } from '../../../lib/http';
import { formatLocalTime } from '../../devices/model/format';
import { saveRevisionFile, useAiModelRevisions, useDeleteRevision } from '../api';
import { shortSha } from '../model/rolloutProgress';

/** The revisions of model `modelId`; `onDeploy` is told the revision whose Deploy button was pressed. */
export function RevisionTable({ modelId, onDeploy }: { modelId: number; onDeploy: (revision: TAiModelRevision) => void }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const { query, paginate } = useListQuery();
  const revisions = useAiModelRevisions(modelId, query);
  const remove = useDeleteRevision(modelId);

  const download = (r: TAiModelRevision) =>
    saveRevisionFile(modelId, r.revision).catch((e: HttpError) => {
      modal.error({ title: t('errors.loadFailed'), content: e.message });
    });
  const confirmDelete = (r: TAiModelRevision) =>
    modal.confirm({
      title: t('aiModels.revisions.deleteTitle', { revision: r.revision }),
      content: t('aiModels.revisions.deleteContent'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'revision-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(r.revision).then(
          () => void message.success(t('aiModels.revisions.deleted')),
          (e: HttpError) => {
            modal.error({ title: t('aiModels.deleteFailed'), content: e.message });
          },
        ),
    });

  return (
    <Table<TAiModelRevision>
      rowKey="id"
      size="middle"
      loading={revisions.isFetching}
      dataSource={revisions.data?.data ?? []}
      onRow={(r) => rowTestId<{ id: number }>('revision')({ id: r.revision })}
      locale={{ emptyText: <Empty description={t('aiModels.revisions.empty')} data-testid="revisions-empty" /> }}
      pagination={{
        current: query.page,
        pageSize: query.limit,
        total: revisions.data?.total_items ?? 0,
        hideOnSinglePage: true,
        onChange: paginate,
      }}
      scroll={{ x: 'max-content' }}
      columns={[
        {
          title: '#',
          dataIndex: 'revision',
          width: 110,
          render: (n: number, r) => (
            <Space>
              {t('aiModels.revisions.number', { revision: n })}
              {r.deployed && <Tag color="blue">{t('aiModels.revisions.deployed')}</Tag>}
            </Space>
          ),
        },
        {
          title: t('aiModels.revisions.file'),
          dataIndex: 'file_name',
          render: (name: string, r) => <span data-testid={`revision-file-${r.revision}`}>{name}</span>,
        },
        { title: t('aiModels.revisions.size'), dataIndex: 'size_bytes', render: (bytes: number) => formatBytes(bytes, i18n.language) },
        {
          title: t('aiModels.revisions.sha256'),
          dataIndex: 'sha256',
          render: (sha: string, r) => (
            <Typography.Text code copyable={{ text: sha }} title={sha} data-testid={`revision-sha-${r.revision}`} data-sha256={sha}>
              {shortSha(sha)}
            </Typography.Text>
          ),
        },
        {
          title: t('aiModels.revisions.notes'),
          dataIndex: 'notes',
          render: (notes: string) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{notes || '—'}</Typography.Text>,
        },
        {
          title: t('aiModels.revisions.uploadedBy'),
          dataIndex: 'uploaded_by',
          render: (by: TAiModelRevision['uploaded_by']) => by?.email ?? t('aiModels.revisions.removedAccount'),
        },
        { title: t('aiModels.revisions.uploadedAt'), dataIndex: 'created_at', render: (ts: number) => formatLocalTime(ts) },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: 'right',
          render: (_, r) => (
            <Space>
              <Button
                size="small"
                type="primary"
                ghost
                icon={<CloudUploadOutlined />}
                onClick={() => onDeploy(r)}
                data-testid={`revision-deploy-${r.revision}`}
              >
                {t('aiModels.deploy.action')}
              </Button>
              <Button
                size="small"
                icon={<DownloadOutlined />}
                onClick={() => void download(r)}
                data-testid={`revision-download-${r.revision}`}
              >
                {t('aiModels.revisions.download')}
              </Button>
              <Tooltip title={r.deployed ? t('aiModels.revisions.deployedHint') : undefined}>
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  disabled={r.deployed}
                  onClick={() => confirmDelete(r)}
                  data-testid={`revision-delete-${r.revision}`}
                />
              </Tooltip>
            </Space>
          ),
        },
      ]}
    />
  );
}

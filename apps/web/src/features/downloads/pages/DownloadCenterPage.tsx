/**
 * /download (spec §2 download centre, §4 "packaging, packaging completed, failed"; docs/downloads.md): the viewer's
 * exports, newest first — name, devices, range, what and how, state with a progress bar (rows done of rows total)
 * while packaging, the failure's reason, size and when the file is removed — with search, paging, a new export,
 * download, cancel and delete (both asking first). The list follows packaging jobs every second.
 */
import { DeleteOutlined, DownloadOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import type { TDownloadJob } from '@tessera/contracts';
import { App, Button, Flex, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceName } from '../../../components/DeviceName';
import { ListPage } from '../../../components/ListPage';
import { useListQuery } from '../../../components/usePagedQuery';
import { formatBytes } from '../../../lib/formatBytes';
import { formatDuration, formatLocalTime } from '../../devices/model/format';
import { saveJobFile, useDownloadJobs, useJobAction } from '../api';
import { ExportModal } from '../components/ExportModal';

const STATE_COLOR = { packaging: 'processing', 'packaging completed': 'success', failed: 'error' } as const;

function StateCell({ job }: { job: TDownloadJob }) {
  const { t, i18n } = useTranslation();
  const nf = new Intl.NumberFormat(i18n.language);
  const label = t(`downloads.states.${job.status === 'packaging completed' ? 'completed' : job.status}`);
  return (
    <Flex vertical gap={2} style={{ minWidth: 180 }}>
      <span>
        <Tag color={STATE_COLOR[job.status]} data-testid={`job-state-${job.id}`} data-state={job.status}>
          {label}
        </Tag>
      </span>
      {job.status === 'packaging' && (
        <>
          <Progress
            percent={job.rows_total ? Math.floor((job.rows_done / job.rows_total) * 100) : 0}
            size="small"
            status="active"
            data-testid={`job-progress-${job.id}`}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`job-rows-${job.id}`}>
            {job.rows_total === null
              ? t('downloads.counting')
              : t('downloads.rows', { done: nf.format(job.rows_done), total: nf.format(job.rows_total) })}
          </Typography.Text>
        </>
      )}
      {job.status === 'failed' && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`job-reason-${job.id}`}>
          {t(`downloads.failures.${job.failure ?? 'internal'}`)}
        </Typography.Text>
      )}
      {job.status === 'packaging completed' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('downloads.done', { rows: nf.format(job.rows_done), size: formatBytes(job.file_bytes ?? 0, i18n.language) })}
        </Typography.Text>
      )}
    </Flex>
  );
}

function RowActions({ job }: { job: TDownloadJob }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const action = useJobAction();
  const fail = (e: Error) => void message.error(e.message);
  return (
    <Space>
      {job.status === 'packaging completed' && (
        <Tooltip title={t('downloads.download')}>
          <Button
            size="small"
            type="primary"
            icon={<DownloadOutlined />}
            aria-label={t('downloads.download')}
            onClick={() => saveJobFile(job.id).catch(fail)}
            data-testid={`job-download-${job.id}`}
          />
        </Tooltip>
      )}
      {job.status === 'packaging' && (
        <Tooltip title={t('downloads.cancel')}>
          <Button
            size="small"
            icon={<StopOutlined />}
            aria-label={t('downloads.cancel')}
            data-testid={`job-cancel-${job.id}`}
            onClick={() =>
              modal.confirm({
                title: t('downloads.cancelTitle', { name: job.name }),
                content: t('downloads.cancelContent'),
                okButtonProps: { 'data-testid': 'job-cancel-confirm' },
                onOk: () => action.mutateAsync({ id: job.id, action: 'cancel' }).catch(fail),
              })
            }
          />
        </Tooltip>
      )}
      <Tooltip title={t('common.delete')}>
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('common.delete')}
          data-testid={`job-delete-${job.id}`}
          onClick={() =>
            modal.confirm({
              title: t('downloads.deleteTitle', { name: job.name }),
              content: t('downloads.deleteContent'),
              okText: t('common.delete'),
              okButtonProps: { danger: true, 'data-testid': 'job-delete-confirm' },
              onOk: () =>
                action
                  .mutateAsync({ id: job.id, action: 'delete' })
                  .then(() => void message.success(t('downloads.deleted')))
                  .catch(fail),
            })
          }
        />
      </Tooltip>
    </Space>
  );
}

/** The download centre. */
export default function DownloadCenterPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const list = useListQuery();
  const jobs = useDownloadJobs(list.query);
  const [creating, setCreating] = useState(false);
  const newButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="export-new">
      {t('downloads.new')}
    </Button>
  );
  const what = (j: TDownloadJob) =>
    j.mode === 'raw' ? t('downloads.modes.raw') : `${t(`downloads.fns.${j.fn}`)} / ${formatDuration(j.bucket_ms, i18n.language)}`;

  return (
    <ListPage<TDownloadJob>
      title={t('downloads.title')}
      extra={newButton}
      list={list}
      result={jobs}
      loading={jobs.isFetching && !jobs.data}
      searchPlaceholder={t('downloads.search')}
      searchTestId="export-search"
      rowPrefix="download-job"
      table={{ scroll: { x: 900 } }}
      empty={{ text: t('downloads.empty'), noMatch: t('downloads.noMatch'), action: newButton }}
      columns={[
        { title: t('downloads.name'), dataIndex: 'name', ellipsis: true },
        {
          title: t('downloads.devices'),
          dataIndex: 'tangram_ids',
          render: (ids: string[]) => (
            <Tooltip title={ids.join(', ')}>
              <span>
                {ids.length === 1 ? (
                  <DeviceName tangramId={ids[0]} testId="job-device" />
                ) : (
                  t('downloads.deviceCount', { count: ids.length })
                )}
              </span>
            </Tooltip>
          ),
        },
        {
          title: t('downloads.range'),
          render: (_, j) => (
            <span style={{ whiteSpace: 'nowrap' }}>
              {formatLocalTime(j.start_ts)}
              <br />
              {formatLocalTime(j.end_ts)}
            </span>
          ),
        },
        {
          title: t('downloads.content'),
          render: (_, j) => (
            <span>
              {j.keys.length ? j.keys.join(', ') : t('downloads.allKeys')}
              <br />
              <Typography.Text type="secondary">
                {what(j)} · {j.format.toUpperCase()}
              </Typography.Text>
            </span>
          ),
        },
        { title: t('downloads.state'), render: (_, j) => <StateCell job={j} /> },
        { title: t('downloads.created'), dataIndex: 'created_at', render: (ts: number) => formatLocalTime(ts) },
        { title: t('downloads.expires'), dataIndex: 'expires_at', render: (ts: number | null) => formatLocalTime(ts) },
        { title: t('common.actions'), render: (_, j) => <RowActions job={j} /> },
      ]}
    >
      <ExportModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void message.success(t('downloads.queued'));
        }}
      />
    </ListPage>
  );
}

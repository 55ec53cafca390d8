/**
 * Uploading a model's next revision (docs/decisions/ai.md "Uploads"): choose a file — one over MAX_MODEL_BYTES is
 * refused before anything is sent — add notes, upload with a progress bar of the bytes sent, cancel while it runs.
 * Leaving the page during an upload asks first (it would stop it).
 */
import { UploadOutlined } from '@ant-design/icons';
import { AI_MODEL_NOTES_MAX, AiModelErrorCode, MAX_MODEL_BYTES } from '@tessera/contracts';
import { Alert, App, Button, Card, Flex, Input, Progress, Space, Typography } from 'antd';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/formatBytes';
import type { HttpError } from '../../../lib/http';
import { useUnsavedChangesPrompt } from '../../../lib/useUnsavedChangesPrompt';
import { useUploadRevision } from '../api';
import { fileRefusal, uploadPercent } from '../model/aiModelForm';

/** Where an upload is: not started, sending (percent of the body), sent and being checked, stored, or failed. */
type TPhase = 'idle' | 'sending' | 'checking' | 'done' | 'failed';

/** The upload panel of model `modelId`. */
export function RevisionUpload({ modelId }: { modelId: number }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const upload = useUploadRevision(modelId);
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [notes, setNotes] = useState('');
  const [phase, setPhase] = useState<TPhase>('idle');
  const [percent, setPercent] = useState(0);
  const [stored, setStored] = useState<number | null>(null);
  const busy = phase === 'sending' || phase === 'checking';
  const max = formatBytes(MAX_MODEL_BYTES, i18n.language);
  const refusal = file ? fileRefusal(file) : null;
  useUnsavedChangesPrompt(busy);
  useEffect(() => () => abort.current?.abort(), []);

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    setFile(e.target.files?.[0] ?? null);
    // Choosing the same file again must fire a change too.
    e.target.value = '';
    setPhase('idle');
    setPercent(0);
  };
  const failed = (err: HttpError) => {
    if (err.code === 'CANCELLED') {
      setPhase('idle');
      setPercent(0);
      return void message.info(t('aiModels.upload.cancelled'));
    }
    setPhase('failed');
    const content = err.code === AiModelErrorCode.TooLarge ? t('aiModels.upload.tooLarge', { max }) : err.message;
    modal.error({ title: t('aiModels.upload.failed'), content });
  };
  const start = () => {
    if (!file || refusal) return;
    const controller = new AbortController();
    abort.current = controller;
    setPhase('sending');
    setPercent(0);
    setStored(null);
    upload.mutate(
      {
        file,
        notes,
        signal: controller.signal,
        onProgress: (sent, total) => {
          const p = uploadPercent(sent, total);
          setPercent(p);
          if (p === 100) setPhase('checking');
        },
      },
      {
        onSuccess: (revision) => {
          setPhase('done');
          setPercent(100);
          setStored(revision.revision);
          setFile(null);
          setNotes('');
          void message.success(t('aiModels.upload.done', { revision: revision.revision }));
        },
        onError: (e) => failed(e as HttpError),
      },
    );
  };

  return (
    <Card size="small" title={t('aiModels.upload.title')} data-testid="revision-upload-panel">
      <Flex vertical gap={12}>
        <Space wrap>
          <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} disabled={busy} data-testid="revision-choose">
            {file ? t('aiModels.upload.chooseOther') : t('aiModels.upload.choose')}
          </Button>
          <input ref={input} type="file" hidden onChange={choose} data-testid="revision-file" />
          {file && (
            <Typography.Text data-testid="revision-file-name">
              {file.name} ({formatBytes(file.size, i18n.language)})
            </Typography.Text>
          )}
        </Space>
        <Typography.Text type="secondary">{t('aiModels.upload.limit', { max })}</Typography.Text>
        {refusal === 'tooLarge' && (
          <Alert type="error" showIcon title={t('aiModels.upload.tooLarge', { max })} data-testid="revision-too-large" />
        )}
        {/* Room below the text area for its character count, which antd places outside it. */}
        <div style={{ paddingBottom: 20 }}>
          <Input.TextArea
            rows={2}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            maxLength={AI_MODEL_NOTES_MAX}
            showCount
            disabled={busy}
            placeholder={t('aiModels.upload.notesPlaceholder')}
            aria-label={t('aiModels.upload.notes')}
            data-testid="revision-notes"
          />
        </div>
        {phase !== 'idle' && (
          <Progress
            percent={percent}
            status={phase === 'failed' ? 'exception' : phase === 'done' ? 'success' : 'active'}
            format={(p) => `${p ?? 0}%`}
            data-testid="revision-progress"
            data-percent={percent}
            data-phase={phase}
          />
        )}
        {phase === 'checking' && <Typography.Text type="secondary">{t('aiModels.upload.processing')}</Typography.Text>}
        {phase === 'done' && stored !== null && (
          <Typography.Text type="success" data-testid="revision-upload-done">
            {t('aiModels.upload.done', { revision: stored })}
          </Typography.Text>
        )}
        <Space>
          <Button type="primary" onClick={start} disabled={!file || refusal !== null || busy} loading={busy} data-testid="revision-upload">
            {t('aiModels.upload.start')}
          </Button>
          {busy && (
            <Button danger onClick={() => abort.current?.abort()} data-testid="revision-cancel">
              {t('aiModels.upload.cancel')}
            </Button>
          )}
        </Space>
      </Flex>
    </Card>
  );
}

/**
 * Bulk registration (docs/decisions/devices-bulk.md): paste serial numbers or pick a CSV file, check every line in a
 * preview (the contracts' rules, repeats, and after a refusal the server's per-line answer), then register them all
 * at once. The answer (with the secrets) goes to `onRegistered`, which shows it once.
 */
import { InboxOutlined } from '@ant-design/icons';
import { MAX_BULK_DEVICES, type TDeviceRegistered } from '@tessera/contracts';
import { Alert, App, Button, Flex, Input, Modal, Segmented, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../../lib/http';
import { useBulkRegisterDevices } from '../api';
import { BulkLinesTable } from './BulkLinesTable';
import { applyServerDetails, dropProblemLines, parseCsv, parsePasted, type TBulkLine, toRequest, verdictOf } from './parseBulk';

interface TProps {
  projectId: number;
  open: boolean;
  onClose: () => void;
  onRegistered: (devices: TDeviceRegistered[]) => void;
}

type TSource = 'paste' | 'csv';

/** The modal body; mounted only while open, so closing forgets the input. */
function BulkRegisterForm({ projectId, onClose, onRegistered }: Omit<TProps, 'open'>) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const register = useBulkRegisterDevices(projectId);
  const [source, setSource] = useState<TSource>('paste');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [lines, setLines] = useState<TBulkLine[]>([]);
  const verdict = verdictOf(lines);
  const problemCount = lines.filter((l) => l.problems.length).length;

  const readFile = (file: File) => {
    void file.text().then((content) => {
      setFileName(file.name);
      setLines(parseCsv(content));
    });
    return false; // read in the browser, never uploaded as is
  };
  const submit = () =>
    register.mutate(toRequest(lines), {
      onSuccess: (devices) => onRegistered(devices),
      onError: (e) => {
        const err = e as HttpError;
        if (err.details?.length && (err.status === 400 || err.status === 409)) {
          const marked = applyServerDetails(lines, err.details);
          setLines(marked);
          void message.error(t('projects.bulk.refusedLines', { count: marked.filter((l) => l.problems.length).length }));
        } else {
          modal.error({ title: t('projects.bulk.failed'), content: err.message });
        }
      },
    });

  return (
    <Flex vertical gap={12}>
      <Segmented<TSource>
        value={source}
        onChange={(v) => {
          setSource(v);
          setLines(v === 'paste' ? parsePasted(text) : []);
          setFileName(null);
        }}
        options={[
          { value: 'paste', label: <span data-testid="bulk-source-paste">{t('projects.bulk.paste')}</span> },
          { value: 'csv', label: <span data-testid="bulk-source-csv">{t('projects.bulk.csv')}</span> },
        ]}
      />
      {source === 'paste' ? (
        <Input.TextArea
          rows={5}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setLines(parsePasted(e.target.value));
          }}
          placeholder={t('projects.bulk.pastePlaceholder')}
          data-testid="bulk-paste"
        />
      ) : (
        <div data-testid="bulk-csv">
          <Upload.Dragger accept=".csv,text/csv,text/plain" multiple={false} showUploadList={false} beforeUpload={readFile}>
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{fileName ?? t('projects.bulk.pickCsv')}</p>
            <p className="ant-upload-hint">{t('projects.bulk.csvHint')}</p>
          </Upload.Dragger>
        </div>
      )}
      <Typography.Text type="secondary">{t('projects.bulk.rules', { max: MAX_BULK_DEVICES })}</Typography.Text>
      {verdict === 'tooMany' && (
        <Alert type="error" showIcon title={t('projects.bulk.tooMany', { max: MAX_BULK_DEVICES, count: lines.length })} />
      )}
      {lines.length > 0 && (
        <Flex justify="space-between" align="center">
          <Typography.Text data-testid="bulk-summary">
            {t('projects.bulk.summary', { count: lines.length, problems: problemCount })}
          </Typography.Text>
          {problemCount > 0 && (
            <Button size="small" onClick={() => setLines(dropProblemLines(lines))} data-testid="bulk-drop-problems">
              {t('projects.bulk.dropProblems')}
            </Button>
          )}
        </Flex>
      )}
      {lines.length > 0 && <BulkLinesTable lines={lines} />}
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="primary" disabled={verdict !== 'ready'} loading={register.isPending} onClick={submit} data-testid="bulk-submit">
          {t('projects.bulk.register', { count: verdict === 'ready' ? lines.length : 0 })}
        </Button>
      </Flex>
    </Flex>
  );
}

/** The bulk registration modal. */
export function BulkRegisterModal({ open, ...props }: TProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('projects.bulk.title')}
      onCancel={props.onClose}
      footer={null}
      width={820}
      destroyOnHidden
      maskClosable={false}
    >
      {open && <BulkRegisterForm {...props} />}
    </Modal>
  );
}

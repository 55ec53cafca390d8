/**
 * The device status definition (spec §3 "Device status", §4, §5): status groups edited in a table, an easy import
 * of up to 20 lines (`name;index;length;value=label,…`), and a live preview decoding a typed 40-bit word.
 * Saved with PUT projects/{id} (ZStatusGroups on both sides).
 */
import { PlusOutlined } from '@ant-design/icons';
import {
  decodeStatusWord,
  EASY_IMPORT_MAX_LINES,
  MAX_STATUS_LINES,
  parseStatusImport,
  STATUS_WORD_MAX,
  statusWordToBinary,
  type TStatusGroup,
  ZStatusGroups,
} from '@tessera/contracts';
import { App, Button, Card, Empty, Flex, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../lib/useIsPhone';
import { useProject } from '../projects/api';
import { useSaveStatusGroups } from './api';
import { parseSampleWord, textToValues, valuesToText } from './statusText';

/** A row being edited: the group plus its values as text. */
interface TRow {
  name: string;
  index: number;
  bytesLength: number;
  valuesText: string;
}

const toRows = (groups: readonly TStatusGroup[]): TRow[] => groups.map((g) => ({ ...g, valuesText: valuesToText(g.values) }));

/** The status card of project `projectId`; reports unsaved edits through `onDirty`. */
export function StatusCard({ projectId, onDirty }: { projectId: number; onDirty: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isPhone = useIsPhone();
  const project = useProject(projectId);
  const save = useSaveStatusGroups(projectId);
  const [rows, setRows] = useState<TRow[] | null>(null);
  const [importText, setImportText] = useState('');
  const [importErrors, setImportErrors] = useState<string[]>([]);
  const [sample, setSample] = useState('');
  const saved = project.data?.status_groups;
  useEffect(() => {
    if (saved && rows === null) setRows(toRows(saved));
  }, [saved, rows]);
  const current = rows ?? [];
  const dirty = rows !== null && saved !== undefined && JSON.stringify(toRows(saved)) !== JSON.stringify(rows);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const groups = current.map((r) => ({ name: r.name, index: r.index, bytesLength: r.bytesLength, values: textToValues(r.valuesText) }));
  const checked = useMemo(() => ZStatusGroups.safeParse(groups), [groups]);
  const problems = [
    ...groups.flatMap((g, i) => (g.values === null ? [t('sensors.status.valuesFormat', { line: i + 1 })] : [])),
    ...(checked.success
      ? []
      : checked.error.issues.map(
          (i) => `${typeof i.path[0] === 'number' ? `#${i.path[0] + 1} ` : ''}${i.path.slice(1).join('.')} ${i.message}`,
        )),
  ];
  const valid = problems.length === 0 && checked.success;

  const word = parseSampleWord(sample);
  const wordOk = word !== null && word <= STATUS_WORD_MAX;
  const preview = valid && wordOk ? decodeStatusWord(word, checked.data) : [];

  const edit = (i: number, patch: Partial<TRow>) => setRows(current.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const onImport = () => {
    const res = parseStatusImport(importText);
    setImportErrors(res.errors.map((e) => (e.line ? t('sensors.status.lineError', { line: e.line, message: e.message }) : e.message)));
    if (res.errors.length === 0) {
      setRows(toRows(res.groups));
      setImportText('');
    }
  };
  const onSave = () =>
    checked.success &&
    save.mutate(checked.data, {
      onSuccess: (p) => {
        setRows(toRows(p.status_groups));
        message.success(t('sensors.saved'));
      },
      onError: (e) => void message.error(`${t('sensors.saveFailed')}: ${e.message}`),
    });

  // At phone width the actions go under the title, where they can wrap, instead of beside it.
  const actions = (
    <Space wrap>
      <Button
        icon={<PlusOutlined />}
        disabled={current.length >= MAX_STATUS_LINES}
        onClick={() => setRows([...current, { name: '', index: 0, bytesLength: 1, valuesText: '' }])}
        data-testid="status-add"
      >
        {t('sensors.status.add')}
      </Button>
      <Button type="primary" disabled={!dirty || !valid} loading={save.isPending} onClick={onSave} data-testid="status-save">
        {t('common.save')}
      </Button>
    </Space>
  );
  return (
    <Card size="small" title={t('sensors.status.title')} extra={!isPhone && actions}>
      {isPhone && <Flex style={{ marginBottom: 8 }}>{actions}</Flex>}
      <Table<TRow>
        size="small"
        rowKey={(_, i) => String(i)}
        dataSource={current}
        pagination={false}
        locale={{ emptyText: <Empty description={t('sensors.status.empty')} /> }}
        columns={[
          {
            title: t('common.name'),
            render: (_, r, i) => (
              <Input
                size="small"
                value={r.name}
                maxLength={36}
                aria-label={t('sensors.status.cell', { field: t('common.name'), line: i + 1 })}
                onChange={(e) => edit(i, { name: e.target.value })}
              />
            ),
          },
          {
            title: t('sensors.status.index'),
            render: (_, r, i) => (
              <InputNumber
                size="small"
                min={0}
                max={39}
                value={r.index}
                aria-label={t('sensors.status.cell', { field: t('sensors.status.index'), line: i + 1 })}
                onChange={(v) => edit(i, { index: Number(v ?? 0) })}
              />
            ),
          },
          {
            title: t('sensors.status.length'),
            render: (_, r, i) => (
              <InputNumber
                size="small"
                min={1}
                max={16}
                value={r.bytesLength}
                aria-label={t('sensors.status.cell', { field: t('sensors.status.length'), line: i + 1 })}
                onChange={(v) => edit(i, { bytesLength: Number(v ?? 1) })}
              />
            ),
          },
          {
            title: t('sensors.status.values'),
            render: (_, r, i) => (
              <Input
                size="small"
                value={r.valuesText}
                placeholder="0=Idle,1=Run"
                aria-label={t('sensors.status.cell', { field: t('sensors.status.values'), line: i + 1 })}
                onChange={(e) => edit(i, { valuesText: e.target.value })}
              />
            ),
          },
          {
            title: '',
            render: (_, _r, i) => (
              <Button size="small" danger onClick={() => setRows(current.filter((_x, j) => j !== i))}>
                {t('common.delete')}
              </Button>
            ),
          },
        ]}
      />
      {problems.length > 0 && (
        <ul style={{ color: '#cf1322' }} data-testid="status-errors">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('sensors.status.import')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('sensors.status.importHelp', { max: EASY_IMPORT_MAX_LINES })}</Typography.Paragraph>
      <Input.TextArea
        rows={4}
        value={importText}
        aria-label={t('sensors.status.import')}
        onChange={(e) => setImportText(e.target.value)}
        placeholder={'Mode;0;2;0=Idle,1=Run,2=Fault\nDoor;8;1;0=Closed,1=Open'}
        data-testid="status-import-text"
      />
      <Button style={{ marginTop: 8 }} onClick={onImport} disabled={!importText.trim()} data-testid="status-import">
        {t('sensors.status.importButton')}
      </Button>
      {importErrors.length > 0 && (
        <ul style={{ color: '#cf1322' }} data-testid="status-import-errors">
          {importErrors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('sensors.status.preview')}
      </Typography.Title>
      <Input
        style={{ maxWidth: 360 }}
        value={sample}
        aria-label={t('sensors.status.preview')}
        onChange={(e) => setSample(e.target.value)}
        placeholder={t('sensors.status.samplePlaceholder')}
        status={sample && !wordOk ? 'error' : undefined}
        data-testid="status-sample"
      />
      {sample && !wordOk && <Typography.Text type="danger"> {t('sensors.status.sampleInvalid')}</Typography.Text>}
      {wordOk && (
        <Typography.Paragraph code data-testid="status-sample-binary">
          {statusWordToBinary(word)}
        </Typography.Paragraph>
      )}
      <Table
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={preview}
        onRow={(d) => ({ 'data-testid': `status-preview-${d.name}` }) as object}
        columns={[
          { title: t('common.name'), dataIndex: 'name' },
          { title: t('sensors.status.binary'), dataIndex: 'binary' },
          { title: t('sensors.status.raw'), dataIndex: 'raw' },
          {
            title: t('sensors.status.label'),
            dataIndex: 'label',
            render: (l: string | null) => l ?? t('sensors.status.undefinedValue'),
          },
        ]}
      />
    </Card>
  );
}

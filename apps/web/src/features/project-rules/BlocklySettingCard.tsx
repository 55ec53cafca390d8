/**
 * The blockly setting (spec §3 "properties, a list of items each with a numeric value"): named numbers that programs
 * read with the "setting" block, so a threshold changes here without editing the program. Saved as a whole (PUT).
 */
import { PlusOutlined } from '@ant-design/icons';
import { BLOCKLY_PROPERTIES_MAX, RULE_PROPERTY_NAME_MAX, ZBlocklySetting } from '@tessera/contracts';
import { App, Button, Card, Empty, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocklySetting, usePutBlocklySetting } from './api';

/** A row being edited (the value may be empty while typing). */
interface TRow {
  name: string;
  value: number | null;
}

/** The blockly-setting card of project `projectId`; reports unsaved edits through `onDirty`. */
export function BlocklySettingCard({ projectId, onDirty }: { projectId: number; onDirty: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const setting = useBlocklySetting(projectId);
  const put = usePutBlocklySetting(projectId);
  const [rows, setRows] = useState<TRow[] | null>(null);
  const saved = setting.data?.properties;
  useEffect(() => {
    if (saved && rows === null) setRows(saved);
  }, [saved, rows]);
  const current = rows ?? [];
  const dirty = rows !== null && saved !== undefined && JSON.stringify(saved) !== JSON.stringify(rows);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const checked = useMemo(() => ZBlocklySetting.safeParse({ properties: current }), [current]);
  const problems = checked.success
    ? []
    : checked.error.issues.map((i) => {
        const row = typeof i.path[1] === 'number' ? i.path[1] + 1 : null;
        const what =
          i.message === 'duplicate name'
            ? t('projectRules.setting.duplicate')
            : i.path[2] === 'value'
              ? t('projectRules.setting.badValue')
              : t('projectRules.setting.badName', { max: RULE_PROPERTY_NAME_MAX });
        return row ? t('projectRules.setting.row', { row, what }) : what;
      });
  const edit = (i: number, patch: Partial<TRow>) => setRows(current.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const onSave = () =>
    checked.success &&
    put.mutate(checked.data, {
      onSuccess: (s) => {
        setRows(s.properties);
        message.success(t('common.saved'));
      },
      onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
    });

  return (
    <Card
      size="small"
      title={t('projectRules.setting.title')}
      extra={
        <Space>
          <Button
            icon={<PlusOutlined />}
            disabled={current.length >= BLOCKLY_PROPERTIES_MAX}
            onClick={() => setRows([...current, { name: '', value: 0 }])}
            data-testid="setting-add"
          >
            {t('projectRules.setting.add')}
          </Button>
          <Button type="primary" disabled={!dirty || !checked.success} loading={put.isPending} onClick={onSave} data-testid="setting-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('projectRules.setting.help', { max: BLOCKLY_PROPERTIES_MAX })}</Typography.Paragraph>
      <Table<TRow>
        size="small"
        rowKey={(_, i) => String(i)}
        dataSource={current}
        pagination={false}
        locale={{ emptyText: <Empty description={t('projectRules.setting.empty')} /> }}
        columns={[
          {
            title: t('common.name'),
            render: (_, r, i) => (
              <Input size="small" value={r.name} onChange={(e) => edit(i, { name: e.target.value })} data-testid={`setting-name-${i}`} />
            ),
          },
          {
            title: t('projectRules.setting.value'),
            render: (_, r, i) => (
              <InputNumber size="small" value={r.value} onChange={(v) => edit(i, { value: v })} data-testid={`setting-value-${i}`} />
            ),
          },
          {
            title: '',
            render: (_, _r, i) => (
              <Button size="small" danger onClick={() => setRows(current.filter((_x, j) => j !== i))} data-testid={`setting-delete-${i}`}>
                {t('common.delete')}
              </Button>
            ),
          },
        ]}
      />
      {problems.length > 0 && (
        <ul style={{ color: '#cf1322' }} data-testid="setting-errors">
          {[...new Set(problems)].map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}

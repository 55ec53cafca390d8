/**
 * The Blockly program editor of the rule tab (spec §4 "Blockly programs can be compiled"): a real Blockly workspace
 * with the rule blocks, fed by the project's sensors, status groups and blockly-setting properties. Compile asks the
 * server and marks each error on its block (Blockly warning) and in a list; Save stores the workspace with its
 * compiled program or errors. Lazy-loaded: Blockly is fetched only when an editor opens.
 */
import { type TBlocklyProgram, type TCompileError, type TCompileResult, type TLanguage, ZBlocklyProgramInput } from '@tessera/contracts';
import { App, Button, Card, Collapse, Flex, Input, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSensors } from '../sensors/api';
import { useProject } from '../projects/api';
import { confirmDiscard } from '../../lib/useUnsavedChangesPrompt';
import { useBlocklySetting, useCompile, useProgram, useSaveProgram } from './api';
import type { TProjectOptions } from './blockly/projectDropdown';
import { useRuleWorkspace } from './blockly/useRuleWorkspace';
import { markErrors, saveWorkspace, showBlock } from './blockly/workspace';

/** What the editor reports to the tab. */
export interface TProgramEditorProps {
  projectId: number;
  /** The program to edit, or null for a new one. */
  programId: number | null;
  /** Called with the id once a new program is first saved. */
  onSaved: (id: number) => void;
  onClose: () => void;
  onDirty: (dirty: boolean) => void;
}

/** The program editor (default export: a lazy chunk). */
export default function ProgramEditor({ projectId, programId, onSaved, onClose, onDirty }: TProgramEditorProps) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const [id, setId] = useState(programId);
  // The workspace loads from the program the editor opened with; later saves only change `id`.
  const [openedId] = useState(programId);
  const program = useProgram(projectId, openedId);
  const project = useProject(projectId);
  const sensors = useSensors(projectId);
  const setting = useBlocklySetting(projectId);
  const compile = useCompile(projectId);
  const save = useSaveProgram(projectId);
  const container = useRef<HTMLDivElement>(null);
  const [name, setName] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [saved, setSaved] = useState<{ name: string; enabled: boolean }>({ name: '', enabled: true });
  const [result, setResult] = useState<TCompileResult | null>(null);
  const ready = Boolean(project.data && sensors.data && setting.data && (openedId === null || program.data));
  const options = useMemo<TProjectOptions>(() => {
    const groups = project.data?.status_groups ?? [];
    return {
      keys: (sensors.data?.data ?? []).filter((s) => s.value_type === 'number').map((s) => s.key),
      valueKeys: (sensors.data?.data ?? []).filter((s) => s.value_type !== 'number').map((s) => s.key),
      groups: groups.map((g) => g.name),
      labels: [...new Set(groups.flatMap((g) => g.values.map((v) => v.label)))],
      properties: (setting.data?.properties ?? []).map((x) => x.name),
      none: t('projectRules.blocks.none'),
    };
  }, [project.data, sensors.data, setting.data, t]);
  const {
    editor,
    dirty: workspaceDirty,
    markSaved,
  } = useRuleWorkspace(
    container,
    ready
      ? {
          t,
          language: i18n.language as TLanguage,
          options,
          saved: program.data?.workspace ?? null,
          onOpened: (opened) => {
            const p = program.data;
            if (!p) return;
            setName(p.name);
            setEnabled(p.enabled);
            setSaved({ name: p.name, enabled: p.enabled });
            showResult(p, opened);
          },
        }
      : null,
  );

  const dirty = workspaceDirty || name !== saved.name || enabled !== saved.enabled;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const errorText = (e: TCompileError) => t(`projectRules.compileErrors.${e.code}`);
  function showResult(r: Pick<TCompileResult, 'errors' | 'program'>, opened = editor.current) {
    setResult({ ok: r.program !== null && r.errors.length === 0, program: r.program, errors: r.errors });
    if (opened) markErrors(opened.workspace, r.errors, errorText);
  }

  const nameOk = ZBlocklyProgramInput.shape.name.safeParse(name).success;
  const onCompile = () => {
    if (!editor.current) return;
    compile.mutate(saveWorkspace(editor.current.workspace), {
      onSuccess: (r) => showResult(r),
      onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
    });
  };
  const onSave = () => {
    if (!editor.current || !nameOk) return;
    const workspace = saveWorkspace(editor.current.workspace);
    save.mutate(
      { id, input: { name: name.trim(), enabled, workspace } },
      {
        onSuccess: (p: TBlocklyProgram) => {
          markSaved(workspace);
          setName(p.name);
          setSaved({ name: p.name, enabled: p.enabled });
          showResult(p);
          if (p.ok) message.success(t('projectRules.programs.savedOk'));
          else message.warning(t('projectRules.programs.savedWithErrors', { count: p.error_count }));
          if (id === null) {
            setId(p.id);
            onSaved(p.id);
          }
        },
        onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
      },
    );
  };
  const onCloseClick = () => (dirty ? confirmDiscard(modal, t, onClose) : onClose());

  return (
    <Card
      size="small"
      title={id === null ? t('projectRules.programs.new') : t('projectRules.programs.edit')}
      data-testid="program-editor"
      extra={
        <Space wrap>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={t('common.name')}
            maxLength={40}
            status={name && !nameOk ? 'error' : undefined}
            style={{ width: 200 }}
            data-testid="program-name"
          />
          <Switch
            checked={enabled}
            onChange={setEnabled}
            checkedChildren={t('projectRules.enabled')}
            unCheckedChildren={t('projectRules.disabled')}
          />
          <Button onClick={onCompile} loading={compile.isPending} disabled={!ready} data-testid="program-compile">
            {t('projectRules.programs.compile')}
          </Button>
          <Button type="primary" onClick={onSave} loading={save.isPending} disabled={!ready || !nameOk} data-testid="program-save">
            {t('common.save')}
          </Button>
          <Button onClick={onCloseClick} data-testid="program-close">
            {t('projectRules.programs.close')}
          </Button>
        </Space>
      }
    >
      {!ready && <Spin />}
      <Typography.Paragraph type="secondary">{t('projectRules.programs.help')}</Typography.Paragraph>
      <div ref={container} style={{ height: 520, width: '100%' }} data-testid="blockly-workspace" />
      <CompileResult
        result={result}
        errorText={errorText}
        onShow={(blockId) => editor.current && showBlock(editor.current.workspace, blockId)}
      />
    </Card>
  );
}

/** The last compile's outcome: OK with the program tree, or the error list (each links to its block). */
function CompileResult(props: { result: TCompileResult | null; errorText: (e: TCompileError) => string; onShow: (id: string) => void }) {
  const { t } = useTranslation();
  const { result, errorText, onShow } = props;
  if (!result) return null;
  if (result.ok) {
    return (
      <Flex vertical gap={8} style={{ marginTop: 12 }}>
        <Tag color="success" data-testid="compile-ok" style={{ alignSelf: 'flex-start' }}>
          {t('projectRules.programs.compiledOk', { count: result.program?.rules.length ?? 0 })}
        </Tag>
        <Collapse
          size="small"
          items={[
            {
              key: 'tree',
              label: t('projectRules.programs.tree'),
              children: <pre style={{ margin: 0 }}>{JSON.stringify(result.program, null, 2)}</pre>,
            },
          ]}
        />
      </Flex>
    );
  }
  return (
    <div style={{ marginTop: 12 }} data-testid="compile-errors">
      <Typography.Text type="danger">{t('projectRules.programs.errorCount', { count: result.errors.length })}</Typography.Text>
      <ul style={{ color: '#cf1322', margin: '4px 0 0' }}>
        {result.errors.map((e) => (
          <li key={`${e.block_id}-${e.code}-${e.message}`} data-testid={`compile-error-${e.code}`}>
            {e.block_id ? <Typography.Link onClick={() => onShow(e.block_id ?? '')}>{errorText(e)}</Typography.Link> : errorText(e)}
          </li>
        ))}
      </ul>
    </div>
  );
}

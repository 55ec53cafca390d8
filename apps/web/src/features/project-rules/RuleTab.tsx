/**
 * /project/detail/{id}/rule (spec §2 project tab "rule"): the rule type, simple rules, Blockly programs and the
 * blockly setting. `?program=<id>` (or `new`) opens the program editor, so a reload keeps it open. One
 * unsaved-changes prompt for the tab (react-router allows one blocker), fed by the editor and the setting card.
 */
import { Flex, Spin } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { useProject } from '../projects/api';
import { BlocklySettingCard } from './BlocklySettingCard';
import { ProgramsCard } from './ProgramsCard';
import { RuleTypeCard } from './RuleTypeCard';
import { SimpleRulesCard } from './SimpleRulesCard';

/** Blockly is large: its chunk loads only when an editor opens. */
const ProgramEditor = lazy(() => import('./ProgramEditor'));

/** The rule tab. */
export default function RuleTab() {
  const { t } = useTranslation();
  const projectId = Number(useParams().id);
  const project = useProject(projectId);
  const [params, setParams] = useSearchParams();
  const programParam = params.get('program');
  const editing = programParam !== null;
  // Bumped when the user opens a program, so a new program keeps its editor when its first save gives it an id.
  const [session, setSession] = useState(0);
  const [dirty, setDirty] = useState({ editor: false, setting: false });
  const onEditorDirty = useCallback((d: boolean) => setDirty((s) => (s.editor === d ? s : { ...s, editor: d })), []);
  const onSettingDirty = useCallback((d: boolean) => setDirty((s) => (s.setting === d ? s : { ...s, setting: d })), []);
  useUnsavedChangesPrompt(dirty.editor || dirty.setting);

  const open = (id: number | null) => {
    setSession((n) => n + 1);
    setParams({ program: id === null ? 'new' : String(id) });
  };
  const close = () => {
    setDirty((s) => ({ ...s, editor: false }));
    setParams({});
  };

  if (!project.data) return <Spin />;
  return (
    <Flex vertical gap={16} data-testid="rule-tab">
      <RuleTypeCard project={project.data} />
      {editing ? (
        <Suspense fallback={<Spin tip={t('projectRules.programs.loading')} />}>
          <ProgramEditor
            key={session}
            projectId={projectId}
            programId={programParam === 'new' ? null : Number(programParam)}
            onSaved={(id) => setParams({ program: String(id) }, { replace: true })}
            onClose={close}
            onDirty={onEditorDirty}
          />
        </Suspense>
      ) : (
        <>
          <SimpleRulesCard projectId={projectId} />
          <ProgramsCard projectId={projectId} onOpen={open} />
        </>
      )}
      <BlocklySettingCard projectId={projectId} onDirty={onSettingDirty} />
    </Flex>
  );
}

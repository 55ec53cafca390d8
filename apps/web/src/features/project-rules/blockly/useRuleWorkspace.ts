/**
 * Mounts the rule editor's Blockly workspace once its inputs are known, keeps the project dropdowns current, and
 * tells whether the blocks differ from the last saved ones (compared as Blockly JSON, so load events do not count).
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { setProjectOptions } from './projectDropdown';
import { openRuleWorkspace, saveWorkspace, type TRuleWorkspace } from './workspace';

/** What the workspace opens with; null until every input has loaded. */
export type TWorkspaceInit = Parameters<typeof openRuleWorkspace>[1] & { onOpened: (w: TRuleWorkspace) => void };

/** The editor's workspace (null until open), whether its blocks are unsaved, and a way to mark them saved. */
export function useRuleWorkspace(container: RefObject<HTMLDivElement | null>, init: TWorkspaceInit | null) {
  const editor = useRef<TRuleWorkspace | null>(null);
  const snapshot = useRef('');
  const [dirty, setDirty] = useState(false);
  // The workspace is built once per editor from the first complete inputs; later refetches must not reload it
  // under the user's hands, so the effect reads them through a ref and runs again only when readiness changes.
  const latest = useRef(init);
  latest.current = init;
  const ready = init !== null;

  useEffect(() => {
    const first = latest.current;
    if (!ready || !first || !container.current) return;
    let disposed = false;
    void openRuleWorkspace(container.current, first).then((opened) => {
      if (disposed) return void opened.workspace.dispose();
      editor.current = opened;
      window.tesseraRuleEditor = opened;
      snapshot.current = JSON.stringify(saveWorkspace(opened.workspace));
      opened.workspace.addChangeListener((e) => {
        if (!e.isUiEvent) setDirty(JSON.stringify(saveWorkspace(opened.workspace)) !== snapshot.current);
      });
      first.onOpened(opened);
    });
    return () => {
      disposed = true;
      editor.current?.workspace.dispose();
      editor.current = null;
      window.tesseraRuleEditor = undefined;
    };
  }, [ready, container]);

  // A property saved in the setting card shows up in the open editor's dropdowns at once.
  const options = init?.options;
  useEffect(() => {
    if (editor.current && options) setProjectOptions(options);
  }, [options]);

  const markSaved = useCallback((workspace: Record<string, unknown>) => {
    snapshot.current = JSON.stringify(workspace);
    setDirty(false);
  }, []);
  return { editor, dirty, markSaved };
}

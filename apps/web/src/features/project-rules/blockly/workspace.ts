/**
 * The Blockly workspace of the rule editor: injected with the console's own media and no sounds (nothing is
 * fetched from the internet), loaded from and saved to Blockly's JSON serialisation, and marked with compile errors.
 */
import type { TCompileError, TLanguage } from '@tessera/contracts';
import * as Blockly from 'blockly/core';
import type { TTranslate } from '../../../lib/zodRules';
import { defineRuleBlocks, ruleToolbox } from './blocks';
import { setProjectOptions, type TProjectOptions } from './projectDropdown';

/** Where the console serves Blockly's media (the `blocklyMedia` plugin of apps/web/vite.config.ts). */
export const BLOCKLY_MEDIA_PATH = '/blockly-media/';

/** A rule-editor workspace and the Blockly namespace it came from. */
export interface TRuleWorkspace {
  workspace: Blockly.WorkspaceSvg;
  Blockly: typeof Blockly;
}

declare global {
  interface Window {
    /**
     * The open rule editor, for automation (the e2e tests build programs through it) and for power users in the
     * browser's console; undefined while no editor is open.
     */
    tesseraRuleEditor?: TRuleWorkspace;
  }
}

/** Loads Blockly's own strings (context menus) in the console's language. */
async function loadBlocklyLocale(language: TLanguage): Promise<void> {
  const messages = language === 'zh-TW' ? await import('blockly/msg/zh-hant') : await import('blockly/msg/en');
  Blockly.setLocale(messages as unknown as Record<string, string>);
}

/**
 * Injects an editor into `container` with the project's dropdown options, and loads `saved` (a workspace JSON)
 * when given. The caller disposes the answer's workspace.
 */
export async function openRuleWorkspace(
  container: HTMLElement,
  opts: { t: TTranslate; language: TLanguage; options: TProjectOptions; saved: Record<string, unknown> | null },
): Promise<TRuleWorkspace> {
  await loadBlocklyLocale(opts.language);
  setProjectOptions(opts.options);
  defineRuleBlocks(opts.t);
  const workspace = Blockly.inject(container, {
    toolbox: ruleToolbox(opts.t),
    media: BLOCKLY_MEDIA_PATH,
    sounds: false,
    trashcan: true,
    zoom: { controls: true, wheel: true, startScale: 0.9 },
    grid: { spacing: 24, length: 2, colour: '#e6e6e6', snap: true },
    move: { scrollbars: true, drag: true, wheel: false },
  });
  if (opts.saved) Blockly.serialization.workspaces.load(opts.saved, workspace);
  return { workspace, Blockly };
}

/** The workspace as Blockly's JSON serialisation (what the server compiles and stores). */
export function saveWorkspace(workspace: Blockly.WorkspaceSvg): Record<string, unknown> {
  return Blockly.serialization.workspaces.save(workspace);
}

/** Puts each error's text on its block as a Blockly warning (and clears the old ones); answers the marked ids. */
export function markErrors(
  workspace: Blockly.WorkspaceSvg,
  errors: readonly TCompileError[],
  text: (e: TCompileError) => string,
): string[] {
  for (const block of workspace.getAllBlocks(false)) block.setWarningText(null);
  const marked: string[] = [];
  for (const e of errors) {
    const block = e.block_id ? workspace.getBlockById(e.block_id) : null;
    if (!block) continue;
    // Keyed by code, so a block with two problems shows both.
    block.setWarningText(text(e), e.code);
    marked.push(block.id);
  }
  return marked;
}

/** Scrolls to block `id` and selects it (the error list's links). */
export function showBlock(workspace: Blockly.WorkspaceSvg, id: string): void {
  const block = workspace.getBlockById(id);
  if (!block) return;
  workspace.centerOnBlock(id);
  Blockly.common.setSelected(block);
}

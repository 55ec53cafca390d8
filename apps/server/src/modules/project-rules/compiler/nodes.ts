/**
 * Reading Blockly's JSON serialisation (`Blockly.serialization.workspaces.save`) without Blockly: a block is
 * `{ type, id, fields?, inputs?: { NAME: { block?, shadow? } }, next?: { block? }, enabled?, disabledReasons? }`.
 * Everything here is defensive: the JSON comes from the client, so any part may be missing or of another type.
 */

/** One block, shallowly read. */
export interface TBlockNode {
  type: string;
  /** Blockly's block id, or null when the JSON has none. */
  id: string | null;
  fields: Record<string, unknown>;
  inputs: Record<string, unknown>;
  /** The raw next block (statement chains), if any. */
  next: unknown;
  /** False for a block switched off in the editor (`enabled: false` or a disabled reason): it is left out. */
  enabled: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a raw block; null when `raw` is not an object with a string `type`. */
export function readNode(raw: unknown): TBlockNode | null {
  if (!isRecord(raw) || typeof raw.type !== 'string') return null;
  const disabled = raw.enabled === false || (Array.isArray(raw.disabledReasons) && raw.disabledReasons.length > 0);
  return {
    type: raw.type,
    id: typeof raw.id === 'string' ? raw.id : null,
    fields: isRecord(raw.fields) ? raw.fields : {},
    inputs: isRecord(raw.inputs) ? raw.inputs : {},
    next: isRecord(raw.next) ? raw.next.block : undefined,
    enabled: !disabled,
  };
}

/** The raw block plugged into input `name` (a real block wins over a shadow), or undefined. */
export function inputOf(node: TBlockNode, name: string): unknown {
  const slot = node.inputs[name];
  if (!isRecord(slot)) return undefined;
  return slot.block ?? slot.shadow;
}

/** The top-level raw blocks of a workspace (`blocks.blocks`), or an empty list. */
export function topBlocks(workspace: unknown): unknown[] {
  if (!isRecord(workspace) || !isRecord(workspace.blocks) || !Array.isArray(workspace.blocks.blocks)) return [];
  return workspace.blocks.blocks;
}

/**
 * Counts the blocks under `roots` (inputs, shadows and next chains), stopping once past `cap`. Iterative, so a
 * deeply nested workspace cannot exhaust the stack.
 */
export function countBlocks(roots: readonly unknown[], cap: number): number {
  const stack = [...roots];
  let n = 0;
  while (stack.length > 0 && n <= cap) {
    const raw = stack.pop();
    if (!isRecord(raw)) continue;
    n += 1;
    if (isRecord(raw.inputs)) {
      for (const slot of Object.values(raw.inputs)) {
        if (isRecord(slot)) stack.push(slot.block, slot.shadow);
      }
    }
    if (isRecord(raw.next)) stack.push(raw.next.block);
  }
  return n;
}

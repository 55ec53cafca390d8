/**
 * A Blockly dropdown whose options come from the open project (number keys, other keys, status groups, status labels,
 * blockly-setting properties), set by the editor through {@link setProjectOptions} before blocks are created.
 * A saved value that is no longer an option (a sensor removed since) is kept and shown with a warning sign rather
 * than silently replaced, so the server's compile can name it.
 */
import * as Blockly from 'blockly/core';

/** Which project list a dropdown offers. */
export type TOptionSource = 'keys' | 'valueKeys' | 'groups' | 'labels' | 'properties';

/** The project lists, and the label of an empty list's placeholder. */
export interface TProjectOptions {
  /** Keys whose values are numbers (telemetry and aggregate blocks). */
  keys: string[];
  /** Keys whose values are strings, booleans or JSON (the value-test block). */
  valueKeys: string[];
  groups: string[];
  labels: string[];
  properties: string[];
  none: string;
}

let options: TProjectOptions = { keys: [], valueKeys: [], groups: [], labels: [], properties: [], none: '—' };

/** Sets the lists the project dropdowns offer (call before loading or creating blocks). */
export function setProjectOptions(next: TProjectOptions): void {
  options = next;
}

/** The dropdown field (`type: 'field_project_dropdown', source: TOptionSource` in block JSON). */
export class FieldProjectDropdown extends Blockly.FieldDropdown {
  private readonly source: TOptionSource;
  private unknown: string | null = null;

  constructor(source: TOptionSource) {
    super(Blockly.Field.SKIP_SETUP);
    this.source = source;
    this.setOptions(() => this.menu());
  }

  /** Builds the field from block JSON. */
  static override fromJson(json: Blockly.FieldDropdownFromJsonConfig & { source?: TOptionSource }): FieldProjectDropdown {
    return new FieldProjectDropdown(json.source ?? 'keys');
  }

  private menu(): Blockly.MenuOption[] {
    const list: Blockly.MenuOption[] = options[this.source].map((v) => [v, v]);
    if (this.unknown !== null) list.push([`⚠ ${this.unknown || options.none}`, this.unknown]);
    return list.length > 0 ? list : [[options.none, '']];
  }

  /** Accepts any value; one that is not in the project's list is remembered so the menu can show it. */
  protected override doClassValidation_(newValue?: string): string | null {
    if (typeof newValue !== 'string') return null;
    const listed = options[this.source].includes(newValue) || (newValue === '' && options[this.source].length === 0);
    this.unknown = listed ? null : newValue;
    this.getOptions(false);
    return newValue;
  }
}

let registered = false;
/** Registers the field type once. */
export function registerProjectDropdown(): void {
  if (registered) return;
  Blockly.fieldRegistry.register('field_project_dropdown', FieldProjectDropdown);
  registered = true;
}

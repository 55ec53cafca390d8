/**
 * The tools the assistant's model may call (docs/decisions/ai.md "Assistant: tools"), as the chat-completions
 * `tools` list. Every tool reads, on the caller's own permissions; `propose_device_command` only proposes a command
 * for the person to confirm in the console. Times are epoch milliseconds.
 */
import { ASSISTANT_ACTION_COMMANDS } from '@tessera/contracts';
import type { TChatTool } from './chat-client.js';
import { RULE_RUNS_DEFAULT, RULE_RUNS_MAX, RUN_SCAN_MAX, RUN_STEPS_MAX, TOOL_VALUE_CHARS_MAX } from './platform-rule-runs.js';

const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[] = []): TChatTool => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
});

const tangramId = { type: 'string', description: 'the device’s full Tangram ID (hex), from list_devices' };
const epochMs = (what: string) => ({ type: 'integer', description: `${what}, epoch milliseconds` });

/** The tool names, in the order the model is told of them. */
export const ASSISTANT_TOOL_NAMES = [
  'list_devices',
  'latest_values',
  'history_statistics',
  'list_alerts',
  'platform_rule_status',
  'platform_rule_runs',
  'propose_device_command',
] as const;
/** A tool's name. */
export type TAssistantToolName = (typeof ASSISTANT_TOOL_NAMES)[number];

/** The `tools` list sent with every model call. */
export const ASSISTANT_TOOLS: readonly TChatTool[] = [
  tool(
    'list_devices',
    'List the devices the person may see (at most 50), optionally those whose name, nickname or Tangram ID contains q.',
    {
      q: { type: 'string', description: 'text to search for' },
    },
  ),
  tool('latest_values', 'The latest value of every telemetry key of one device.', { tangram_id: tangramId }, ['tangram_id']),
  tool(
    'history_statistics',
    'Statistics (count, min, max, average, standard deviation, 5th/50th/95th percentiles) of one key of one device over a range of at most 90 days.',
    {
      tangram_id: tangramId,
      key: { type: 'string', description: 'telemetry key, e.g. temperature' },
      from: epochMs('start'),
      to: epochMs('end'),
    },
    ['tangram_id', 'key', 'from', 'to'],
  ),
  tool(
    'list_alerts',
    'Alerts the person may see, newest first (at most 50), first seen in [from, to] (default: the last 90 days), optionally of one device.',
    {
      from: epochMs('start'),
      to: epochMs('end'),
      tangram_id: tangramId,
      level: { type: 'string', enum: ['remind', 'early_warning', 'alert'] },
    },
  ),
  tool(
    'platform_rule_status',
    'The platform rules of the tenant with their id, status (running, stopped, error, …) and last run time; platform_rule_runs takes the id.',
    {
      q: { type: 'string', description: 'text a rule name contains' },
    },
  ),
  tool(
    'platform_rule_runs',
    `The newest runs of one platform rule, newest first, each with its trigger (device, key, values), outcome (ok, error, refused), error and trace: the nodes it visited in order with each node's outcome, error and output. Use it to explain why a rule did or did not act. Cut to stay small: at most ${RUN_STEPS_MAX} nodes per run (the last, where an error stops a run, always kept; steps_omitted counts the rest) and values over ${TOOL_VALUE_CHARS_MAX} characters end in "… (+N chars)". Vendors only.`,
    {
      rule_id: { type: 'integer', description: 'the rule’s id, from platform_rule_status' },
      limit: { type: 'integer', minimum: 1, maximum: RULE_RUNS_MAX, description: `how many runs, default ${RULE_RUNS_DEFAULT}` },
      failed_only: {
        type: 'boolean',
        description: `only runs that failed (error or refused), searched among the newest ${RUN_SCAN_MAX}; default false`,
      },
    },
    ['rule_id'],
  ),
  tool(
    'propose_device_command',
    'Propose a remote-control command for the person to confirm; it is NOT sent by you. getDeviceInfo needs no key; sensorCommand needs a key and an action (default read).',
    {
      tangram_id: tangramId,
      command: { type: 'string', enum: [...ASSISTANT_ACTION_COMMANDS] },
      key: { type: 'string', description: 'sensorCommand: the telemetry key' },
      action: { type: 'string', description: 'sensorCommand: the action, default read' },
    },
    ['tangram_id', 'command'],
  ),
];

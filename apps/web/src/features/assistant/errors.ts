/** The assistant's error codes → i18n keys under `assistant.errors` (docs/decisions/ai.md "Assistant: limits"). */
import { AssistantErrorCode } from '@tessera/contracts';

const KEYS: Record<string, string> = {
  [AssistantErrorCode.NotConfigured]: 'assistant.errors.notConfigured',
  [AssistantErrorCode.RequestLimit]: 'assistant.errors.requestLimit',
  [AssistantErrorCode.TokenLimit]: 'assistant.errors.tokenLimit',
  [AssistantErrorCode.Upstream]: 'assistant.errors.upstream',
  [AssistantErrorCode.ToolRounds]: 'assistant.errors.toolRounds',
  OFFLINE: 'assistant.errors.offline',
};

/** The i18n key of the message for error `code` (a generic one for codes the assistant does not name). */
export const assistantErrorKey = (code: string) => KEYS[code] ?? 'assistant.errors.generic';

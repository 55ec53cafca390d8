/**
 * The assistant's feature code and paths (spec §1 feature 13:25, `/frontstage-ai/v1/assistant`). In a module of their
 * own, without zod: the console's header shows the assistant's button without loading classic zod. assistant.ts
 * re-exports them.
 */
import { API } from './api-paths.js';

/** The feature code that grants the assistant (spec §1). Not granted by default to any level. */
export const ASSISTANT_FEATURE = '13:25';

/** Paths of the assistant, relative to the host. */
export const assistantPaths = {
  status: `${API.ai}/assistant/status`,
  conversations: `${API.ai}/assistant/conversations`,
  conversation: (id: number) => `${API.ai}/assistant/conversations/${id}`,
  messages: (id: number) => `${API.ai}/assistant/conversations/${id}/messages`,
} as const;

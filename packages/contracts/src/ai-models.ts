/**
 * The AI model registry (spec §3 "AI model with revisions", §7 `/frontstage-ai/v1` "ai-models with revisions CRUD and
 * download"; docs/decisions/ai.md): a model names what it is (framework, the catalogue's hardware module it targets,
 * what goes in and comes out); each upload of its file is a numbered revision with the file's SHA-256, size, notes,
 * who uploaded it and when. Deploying revisions to devices and the AI assistant (feature code 13:25) come later.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { NUL, ZId, ZIdText } from './input.js';
import { DESCRIPTION_MAX, MAX_MODEL_BYTES, NAME_MAX } from './limits.js';
import { ZListQuery, zPage } from './pagination.js';

/** Paths of the registry, relative to the host; `rev` is a revision's number within its model (1, 2, …). */
export const aiModelPaths = {
  models: `${API.ai}/ai-models`,
  model: (id: number) => `${API.ai}/ai-models/${id}`,
  revisions: (id: number) => `${API.ai}/ai-models/${id}/revisions`,
  revision: (id: number, rev: number) => `${API.ai}/ai-models/${id}/revisions/${rev}`,
  download: (id: number, rev: number) => `${API.ai}/ai-models/${id}/revisions/${rev}/download`,
  link: (id: number, rev: number) => `${API.ai}/ai-models/${id}/revisions/${rev}/link`,
} as const;

/** The frameworks a model's file is for. A format of several files (OpenVINO IR: .xml and .bin) is uploaded as one archive. */
export const AI_MODEL_FRAMEWORKS = ['onnx', 'tflite', 'tensorrt', 'openvino', 'other'] as const;
export type TAiModelFramework = (typeof AI_MODEL_FRAMEWORKS)[number];

/** The input and the output description are free text of at most this many characters (tensor names, shapes, units). */
export const AI_MODEL_IO_MAX = 2_000;
/** A revision's notes: at most this many characters. */
export const AI_MODEL_NOTES_MAX = 1_000;
/** A revision's file name is kept to this many characters (longer ones are cut, keeping the extension). */
export const AI_MODEL_FILE_NAME_MAX = 255;
/** The multipart fields of POST …/revisions: `notes` (optional, sent before the file) and the file. */
export const AI_MODEL_NOTES_FIELD = 'notes';
export const AI_MODEL_FILE_FIELD = 'file';
/** A download link (POST …/link) is valid this many seconds. */
export const AI_MODEL_LINK_TTL_S = 60;

/**
 * Error codes of the registry: 413 a file over {@link MAX_MODEL_BYTES}; 409 a deployed revision (or a model with one)
 * that may not be deleted; 416 a `Range` outside the file; 410 a revision whose file is gone from the blob store.
 */
export const AiModelErrorCode = {
  TooLarge: 'AI_MODEL_TOO_LARGE',
  Deployed: 'AI_MODEL_DEPLOYED',
  RangeNotSatisfiable: 'RANGE_NOT_SATISFIABLE',
  FileGone: 'AI_MODEL_FILE_GONE',
} as const;

/** True when a file of `bytes` may be uploaded as a revision (the console checks before sending; the server enforces). */
export const isModelSizeAllowed = (bytes: number) => bytes <= MAX_MODEL_BYTES;

/** Text trimmed to `min`…`max` characters, with no NUL (a multipart field passes no input guard). */
const zText = (max: number, min = 0) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((s) => !s.includes(NUL), 'no NUL character');

/** POST ai-models and PUT ai-models/{id}: the whole model. `tangram_product_id` is a module of the catalogue. */
export const ZAiModelInput = z.object({
  name: zText(NAME_MAX, 1),
  description: zText(DESCRIPTION_MAX).default(''),
  framework: z.enum(AI_MODEL_FRAMEWORKS),
  tangram_product_id: ZId,
  input_description: zText(AI_MODEL_IO_MAX).default(''),
  output_description: zText(AI_MODEL_IO_MAX).default(''),
});
export type TAiModelInput = z.input<typeof ZAiModelInput>;
export type TAiModelValues = z.output<typeof ZAiModelInput>;

/** `?page=&limit=&q=&framework=` of GET ai-models; `q` matches the name or the description, ignoring case. */
export const ZAiModelListQuery = ZListQuery.extend({ framework: z.enum(AI_MODEL_FRAMEWORKS).optional() });
export type TAiModelListQuery = z.infer<typeof ZAiModelListQuery>;

/** A model as answered: its fields, the module's name and model number, and how many revisions it has. */
export const ZAiModel = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  framework: z.enum(AI_MODEL_FRAMEWORKS),
  tangram_product_id: z.number().int(),
  module_name: z.string(),
  module_model_number: z.string(),
  input_description: z.string(),
  output_description: z.string(),
  revision_count: z.number().int(),
  /** The newest revision's number, or null while it has none. */
  latest_revision: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TAiModel = z.infer<typeof ZAiModel>;
export const ZAiModelPage = zPage(ZAiModel);
export type TAiModelPage = z.infer<typeof ZAiModelPage>;

/** `:id/revisions/:rev` of the revision routes. */
export const ZAiModelRevisionParam = z.object({ id: ZIdText, rev: ZIdText });

/** The notes field of an upload. */
export const ZAiModelRevisionNotes = zText(AI_MODEL_NOTES_MAX);

/** A revision as answered. `sha256` is lower-case hex; `uploaded_by` is null once that account is gone. */
export const ZAiModelRevision = z.object({
  id: z.number().int(),
  model_id: z.number().int(),
  revision: z.number().int(),
  file_name: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  notes: z.string(),
  uploaded_by: z.object({ account_id: z.number().int(), email: z.string() }).nullable(),
  created_at: z.number().int(),
  /** True while the revision is deployed to a device: it may not be deleted. */
  deployed: z.boolean(),
});
export type TAiModelRevision = z.infer<typeof ZAiModelRevision>;
export const ZAiModelRevisionPage = zPage(ZAiModelRevision);
export type TAiModelRevisionPage = z.infer<typeof ZAiModelRevisionPage>;

/** POST …/link: a URL that downloads the file without the bearer header, for {@link AI_MODEL_LINK_TTL_S} seconds. */
export const ZAiModelLink = z.object({ url: z.string(), expires_at: z.number().int() });
export type TAiModelLink = z.infer<typeof ZAiModelLink>;

/** `?token=` of the download with a link instead of the bearer header. */
export const ZAiModelDownloadQuery = z.object({ token: z.string().max(2048).optional() });

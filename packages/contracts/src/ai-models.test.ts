import { describe, expect, it } from 'vitest';
import {
  AI_MODEL_IO_MAX,
  AI_MODEL_NOTES_MAX,
  aiModelPaths,
  isModelSizeAllowed,
  ZAiModelInput,
  ZAiModelListQuery,
  ZAiModelRevisionNotes,
  ZAiModelRevisionParam,
} from './ai-models.js';
import { DESCRIPTION_MAX, MAX_MODEL_BYTES, NAME_MAX } from './limits.js';

const model = { name: 'Bearing fault', framework: 'onnx', tangram_product_id: 1 };

describe('AI model registry contracts (spec §3 AI model with revisions, §7 /frontstage-ai/v1)', () => {
  it('allows a revision of exactly 200 MiB and refuses one byte more', () => {
    expect(MAX_MODEL_BYTES).toBe(209_715_200);
    expect(isModelSizeAllowed(MAX_MODEL_BYTES)).toBe(true);
    expect(isModelSizeAllowed(MAX_MODEL_BYTES + 1)).toBe(false);
  });

  it('puts every route under /frontstage-ai/v1/ai-models', () => {
    expect(aiModelPaths.models).toBe('/frontstage-ai/v1/ai-models');
    expect(aiModelPaths.download(4, 2)).toBe('/frontstage-ai/v1/ai-models/4/revisions/2/download');
    expect(aiModelPaths.link(4, 2)).toBe('/frontstage-ai/v1/ai-models/4/revisions/2/link');
  });

  it('takes a model with defaults for the texts, trimmed, name 1 to NAME_MAX characters', () => {
    expect(ZAiModelInput.parse({ ...model, name: '  x  ' })).toEqual({
      ...model,
      name: 'x',
      description: '',
      input_description: '',
      output_description: '',
    });
    expect(ZAiModelInput.safeParse({ ...model, name: 'n'.repeat(NAME_MAX) }).success).toBe(true);
    expect(ZAiModelInput.safeParse({ ...model, name: 'n'.repeat(NAME_MAX + 1) }).success).toBe(false);
    expect(ZAiModelInput.safeParse({ ...model, name: '   ' }).success).toBe(false);
  });

  it('bounds the description and the input and output descriptions, and refuses NUL', () => {
    expect(ZAiModelInput.safeParse({ ...model, description: 'd'.repeat(DESCRIPTION_MAX) }).success).toBe(true);
    expect(ZAiModelInput.safeParse({ ...model, description: 'd'.repeat(DESCRIPTION_MAX + 1) }).success).toBe(false);
    expect(ZAiModelInput.safeParse({ ...model, input_description: 'i'.repeat(AI_MODEL_IO_MAX) }).success).toBe(true);
    expect(ZAiModelInput.safeParse({ ...model, output_description: 'o'.repeat(AI_MODEL_IO_MAX + 1) }).success).toBe(false);
    expect(ZAiModelInput.safeParse({ ...model, input_description: 'a\u0000b' }).success).toBe(false);
    expect(ZAiModelRevisionNotes.safeParse('n'.repeat(AI_MODEL_NOTES_MAX)).success).toBe(true);
    expect(ZAiModelRevisionNotes.safeParse('n'.repeat(AI_MODEL_NOTES_MAX + 1)).success).toBe(false);
    expect(ZAiModelRevisionNotes.safeParse('a\u0000').success).toBe(false);
  });

  it('knows the frameworks and needs a module id', () => {
    for (const framework of ['onnx', 'tflite', 'tensorrt', 'openvino', 'other']) {
      expect(ZAiModelInput.safeParse({ ...model, framework }).success, framework).toBe(true);
    }
    expect(ZAiModelInput.safeParse({ ...model, framework: 'pickle' }).success).toBe(false);
    expect(ZAiModelInput.safeParse({ ...model, tangram_product_id: 0 }).success).toBe(false);
    expect(ZAiModelListQuery.parse({ framework: 'tflite' })).toMatchObject({ framework: 'tflite', page: 1 });
    expect(ZAiModelListQuery.safeParse({ framework: 'x' }).success).toBe(false);
  });

  it('reads a revision number in the path strictly', () => {
    expect(ZAiModelRevisionParam.parse({ id: '3', rev: '12' })).toEqual({ id: 3, rev: 12 });
    expect(ZAiModelRevisionParam.safeParse({ id: '3', rev: '0' }).success).toBe(false);
    expect(ZAiModelRevisionParam.safeParse({ id: '3', rev: '1e2' }).success).toBe(false);
  });
});

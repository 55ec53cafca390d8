import { MAX_MODEL_BYTES, type TAiModel } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { aiModelBodyOf, aiModelFormOf, fileRefusal, uploadPercent } from './aiModelForm';

const model: TAiModel = {
  id: 7,
  name: 'Bearing fault',
  description: 'd',
  framework: 'tflite',
  tangram_product_id: 3,
  module_name: 'M',
  module_model_number: '0101',
  input_description: 'in',
  output_description: 'out',
  revision_count: 2,
  latest_revision: 2,
  created_at: 1,
  updated_at: 2,
};

describe('AI model form', () => {
  it('starts a new model as ONNX without a module, and round-trips a model to its body', () => {
    expect(aiModelFormOf(null)).toMatchObject({ name: '', framework: 'onnx', tangram_product_id: undefined });
    expect(aiModelBodyOf(aiModelFormOf(model))).toEqual({
      name: 'Bearing fault',
      description: 'd',
      framework: 'tflite',
      tangram_product_id: 3,
      input_description: 'in',
      output_description: 'out',
    });
  });

  it('refuses a file over 200 MiB before sending, not one of exactly 200 MiB', () => {
    expect(fileRefusal({ size: MAX_MODEL_BYTES })).toBeNull();
    expect(fileRefusal({ size: MAX_MODEL_BYTES + 1 })).toBe('tooLarge');
  });

  it('shows whole percents, 0 while the total is unknown, never above 100', () => {
    expect(uploadPercent(0, 0)).toBe(0);
    expect(uploadPercent(1, 3)).toBe(33);
    expect(uploadPercent(999, 1000)).toBe(99);
    expect(uploadPercent(1000, 1000)).toBe(100);
    expect(uploadPercent(1200, 1000)).toBe(100);
  });
});

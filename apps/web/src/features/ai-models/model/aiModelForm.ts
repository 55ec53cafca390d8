/**
 * The AI model form's model (docs/decisions/ai.md): form values from a presented model and back to the contract's
 * body, and what the revision upload shows — a file's size check before sending and the percentage of the progress
 * bar. Pure, so it is unit-tested.
 */
import { isModelSizeAllowed, type TAiModel, type TAiModelFramework, type TAiModelInput } from '@tessera/contracts';

/** The model form's values; the module is unset until picked. */
export interface TAiModelForm {
  name: string;
  description: string;
  framework: TAiModelFramework;
  tangram_product_id?: number;
  input_description: string;
  output_description: string;
}

/** The form values of `model`, or of a new ONNX model. */
export function aiModelFormOf(model: TAiModel | null): TAiModelForm {
  if (!model)
    return { name: '', description: '', framework: 'onnx', tangram_product_id: undefined, input_description: '', output_description: '' };
  return {
    name: model.name,
    description: model.description,
    framework: model.framework,
    tangram_product_id: model.tangram_product_id,
    input_description: model.input_description,
    output_description: model.output_description,
  };
}

/** The body of POST/PUT ai-models from the form. */
export function aiModelBodyOf(form: TAiModelForm): TAiModelInput {
  return {
    name: form.name ?? '',
    description: form.description ?? '',
    framework: form.framework,
    tangram_product_id: form.tangram_product_id ?? 0,
    input_description: form.input_description ?? '',
    output_description: form.output_description ?? '',
  };
}

/** Why a chosen file may not be uploaded (`tooLarge`: over MAX_MODEL_BYTES), or null when it may. */
export function fileRefusal(file: { size: number }): 'tooLarge' | null {
  return isModelSizeAllowed(file.size) ? null : 'tooLarge';
}

/** The progress bar's whole percent of `sentBytes` of `totalBytes` (0 while the total is unknown), at most 100. */
export function uploadPercent(sentBytes: number, totalBytes: number): number {
  if (totalBytes <= 0) return 0;
  return Math.min(100, Math.floor((sentBytes / totalBytes) * 100));
}

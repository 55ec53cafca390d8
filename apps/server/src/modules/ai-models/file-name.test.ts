import { AI_MODEL_FILE_NAME_MAX } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { cleanFileName, DEFAULT_MODEL_FILE_NAME } from './file-name.js';

describe('cleanFileName', () => {
  it('keeps a plain name, Chinese included', () => {
    expect(cleanFileName('bearing-v2.onnx')).toBe('bearing-v2.onnx');
    expect(cleanFileName('軸承模型.tflite')).toBe('軸承模型.tflite');
  });

  it('drops folders, control characters and surrounding spaces', () => {
    expect(cleanFileName('C:\\Users\\me\\model.onnx')).toBe('model.onnx');
    expect(cleanFileName('/tmp/x/../model.onnx')).toBe('model.onnx');
    expect(cleanFileName(' a\u0000b\r\n.onnx ')).toBe('ab.onnx');
  });

  it('names a file without a name', () => {
    expect(cleanFileName(undefined)).toBe(DEFAULT_MODEL_FILE_NAME);
    expect(cleanFileName('  ')).toBe(DEFAULT_MODEL_FILE_NAME);
    expect(cleanFileName('dir/')).toBe(DEFAULT_MODEL_FILE_NAME);
  });

  it('cuts a long name to the limit, keeping the extension and whole characters', () => {
    const long = `${'模'.repeat(300)}.engine`;
    const cut = cleanFileName(long);
    expect(Array.from(cut)).toHaveLength(AI_MODEL_FILE_NAME_MAX);
    expect(cut.endsWith('模.engine')).toBe(true);
    expect(Array.from(cleanFileName('😀'.repeat(400)))).toHaveLength(AI_MODEL_FILE_NAME_MAX);
  });
});

import { describe, expect, it } from 'vitest';
import { imageIdOf, imageUrlOf, isImageSizeAllowed, IMAGE_TOO_LARGE_MESSAGE, ZImageUrl } from './images.js';
import { MAX_IMAGE_BYTES } from './limits.js';
import { DEFAULT_PRODUCT_FUNCTIONS, ZProductCreate, ZProductFunctions } from './products.js';

describe('images (§5 image at most 2 MB)', () => {
  it('allows exactly 2 MB and refuses one byte more', () => {
    expect(MAX_IMAGE_BYTES).toBe(2_097_152);
    expect(isImageSizeAllowed(MAX_IMAGE_BYTES)).toBe(true);
    expect(isImageSizeAllowed(MAX_IMAGE_BYTES + 1)).toBe(false);
  });

  it('says the spec message', () => {
    expect(IMAGE_TOO_LARGE_MESSAGE).toBe('image over 2MB');
  });

  it('takes only URLs of uploaded images as a product image', () => {
    const url = imageUrlOf('abcdefghijklmnopqrstuv');
    expect(ZImageUrl.safeParse(url).success).toBe(true);
    expect(imageIdOf(url)).toBe('abcdefghijklmnopqrstuv');
    for (const bad of ['https://example.com/a.png', 'javascript:alert(1)', `${url}x`, '/frontstage/v1/images/../x']) {
      expect(ZImageUrl.safeParse(bad).success, bad).toBe(false);
    }
    const base = { name: 'n', model: 'm', number: 'x' };
    expect(ZProductCreate.safeParse({ ...base, image_url: url }).success).toBe(true);
    expect(ZProductCreate.safeParse({ ...base, image_url: null }).success).toBe(true);
    expect(ZProductCreate.safeParse({ ...base, image_url: 'x'.repeat(22) }).success).toBe(false);
  });
});

describe('product functions', () => {
  it('takes exactly the five switches', () => {
    expect(ZProductFunctions.safeParse(DEFAULT_PRODUCT_FUNCTIONS).success).toBe(true);
    expect(ZProductFunctions.safeParse({ ...DEFAULT_PRODUCT_FUNCTIONS, extra: true }).success).toBe(false);
    const { ota: _ota, ...missing } = DEFAULT_PRODUCT_FUNCTIONS;
    expect(ZProductFunctions.safeParse(missing).success).toBe(false);
  });
});

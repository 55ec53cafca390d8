/**
 * Languages of the console and of mail templates; zh-TW is the default. In a module of its own, without zod: the
 * console's first chunk reads it (language switch, stored session) and so does not download zod with it.
 */
export const LANGUAGES = ['zh-TW', 'en'] as const;

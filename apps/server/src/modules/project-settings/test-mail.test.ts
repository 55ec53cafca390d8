import { describe, expect, it } from 'vitest';
import { languageOfHeader, renderTestMail } from './test-mail.js';

describe('languageOfHeader', () => {
  it('picks the first supported language, en-* as en, else null', () => {
    expect(languageOfHeader('zh-TW')).toBe('zh-TW');
    expect(languageOfHeader('fr, en-US;q=0.8')).toBe('en');
    expect(languageOfHeader('zh-tw,en')).toBe('zh-TW');
    expect(languageOfHeader('fr')).toBeNull();
    expect(languageOfHeader(undefined)).toBeNull();
  });
});

describe('renderTestMail', () => {
  it('names the project and the sender in both languages', () => {
    expect(renderTestMail('en', 'P', 'a@b.c')).toMatchObject({ subject: 'Tessera test notification: P' });
    expect(renderTestMail('zh-TW', 'P', 'a@b.c').text).toContain('a@b.c');
  });
});

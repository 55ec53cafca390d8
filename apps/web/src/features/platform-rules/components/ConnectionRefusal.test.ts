import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import zh from '../locales/zh-TW.json';
import { refusalText } from './ConnectionRefusal';

const graph = {
  nodes: [
    { id: 'n1', type: 'start' },
    { id: 'n2', type: 'condition' },
    { id: 'n3', type: 'alert' },
  ],
  edges: [{ source: 'n1', target: 'n2' }],
};

describe('refusalText', () => {
  it('says why a condition cannot lead straight to an action, in both languages', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'zh-TW', resources: { 'zh-TW': { translation: zh }, en: { translation: en } } });
    expect(refusalText(i18n.t, graph, { source: 'n2', target: 'n3' })).toBe(
      '無法連接：條件之後要先接「條件結果」節點（真或假），再接其他動作',
    );
    await i18n.changeLanguage('en');
    expect(refusalText(i18n.t, graph, { source: 'n2', target: 'n3' })).toMatch(
      /^Cannot connect: a condition leads first to a “condition result” node/,
    );
  });
  it('is null for a connection apply accepts', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { translation: en } } });
    expect(refusalText(i18n.t, graph, { source: 'n1', target: 'n3' })).toBeNull();
  });
});

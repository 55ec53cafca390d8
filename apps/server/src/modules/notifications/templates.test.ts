import { describe, expect, it } from 'vitest';
import { formatAlertTime, renderAlertLine, renderAlertMail, type TAlertMailData } from './templates.js';

const data: TAlertMailData = {
  reason: 'opened',
  level: 'early_warning',
  ruleName: 'Too hot',
  message: 'temperature above 30',
  projectName: 'Cold chain',
  deviceName: 'Fridge 1',
  tangramId: 'ABCDEF',
  trigger: { key: 'temperature', value: 31.5 },
  at: Date.UTC(2026, 0, 15, 4, 5, 6),
  link: 'https://console.example.com/alerts/history?device=ABCDEF',
};

describe('alert mail templates', () => {
  it('renders zh-TW in Taipei time and en in UTC', () => {
    expect(formatAlertTime('zh-TW', data.at)).toBe('2026/01/15 12:05:06 [GMT+8]');
    expect(formatAlertTime('en', data.at)).toBe('15 Jan 2026, 04:05:06 UTC');
  });

  it('puts level, rule and device in the subject and every fact in the body', () => {
    const zh = renderAlertMail('zh-TW', data);
    expect(zh.subject).toBe('[Tessera][預警] Too hot — Fridge 1');
    for (const part of [
      '新告警',
      '訊息: temperature above 30',
      '專案: Cold chain',
      '裝置: Fridge 1 (ABCDEF)',
      'temperature = 31.5',
      '12:05:06',
      data.link,
    ]) {
      expect(zh.text).toContain(part);
    }
    const en = renderAlertMail('en', { ...data, reason: 'repeat', level: 'alert', trigger: null });
    expect(en.subject).toBe('[Tessera][Alert] Too hot — Fridge 1');
    expect(en.text).toContain('Alert still active');
    expect(en.text).not.toContain('Trigger:');
  });

  it('names a notify action without a level a notice', () => {
    expect(renderAlertMail('en', { ...data, reason: 'notify', level: null }).subject).toBe('[Tessera][Notice] Too hot — Fridge 1');
  });

  it('writes the LINE text as the subject line and the facts, without the footer', () => {
    const text = renderAlertLine('en', data);
    expect(text.split('\n')[0]).toBe('[Tessera][Early warning] Too hot — Fridge 1');
    expect(text).toContain('Device: Fridge 1 (ABCDEF)');
    expect(text).not.toContain('You receive this mail');
  });
});

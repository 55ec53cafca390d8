/**
 * Alert notification mail in zh-TW and en in the recipient's language
 * (docs/decisions/notifications.md). Plain text, like the auth mail (modules/mail/templates.ts). Times render with
 * `Intl.DateTimeFormat`: Asia/Taipei for zh-TW readers, UTC for en readers (the zone is named in the text).
 */
import type { TAlertLevel, TLanguage, TWebPushPayload } from '@tessera/contracts';
import type { TRuleNotificationReason } from './types.js';

/** What an alert mail tells. `at` epoch ms; `link` the console's alert history for this alert. */
export interface TAlertMailData {
  reason: TRuleNotificationReason;
  level: TAlertLevel | null;
  ruleName: string;
  message: string;
  projectName: string;
  deviceName: string;
  tangramId: string;
  trigger: { key: string; value: number } | null;
  at: number;
  link: string;
}

interface TWords {
  levels: Record<TAlertLevel, string>;
  notice: string;
  reasons: Record<TRuleNotificationReason, string>;
  labels: { message: string; project: string; device: string; trigger: string; time: string; reason: string; link: string };
  footer: string;
  timeZone: string;
  locale: string;
  /** Month style: numeric reads naturally in zh-TW; en spells it, so day and month cannot be confused. */
  month: '2-digit' | 'short';
}

const WORDS: Record<TLanguage, TWords> = {
  'zh-TW': {
    levels: { remind: '提醒', early_warning: '預警', alert: '警報' },
    notice: '通知',
    reasons: { opened: '新告警', repeat: '告警持續中', notify: '規則通知' },
    labels: { message: '訊息', project: '專案', device: '裝置', trigger: '觸發數值', time: '時間', reason: '原因', link: '告警紀錄' },
    footer: '您收到這封信，是因為您在專案的通知信箱名單中，或訂閱了這個裝置或專案的告警。',
    timeZone: 'Asia/Taipei',
    locale: 'zh-TW',
    month: '2-digit',
  },
  en: {
    levels: { remind: 'Remind', early_warning: 'Early warning', alert: 'Alert' },
    notice: 'Notice',
    reasons: { opened: 'New alert', repeat: 'Alert still active', notify: 'Rule notification' },
    labels: {
      message: 'Message',
      project: 'Project',
      device: 'Device',
      trigger: 'Trigger',
      time: 'Time',
      reason: 'Reason',
      link: 'Alert history',
    },
    footer: "You receive this mail because you are on the project's notification list or subscribed to this device's or project's alerts.",
    timeZone: 'UTC',
    locale: 'en-GB',
    month: 'short',
  },
};

/** `at` as the reader of `language` reads it, naming the zone: "2026/01/15 12:05:06 [GMT+8]", "15 Jan 2026, 04:05:06 UTC". */
export function formatAlertTime(language: TLanguage, at: number): string {
  const w = WORDS[language];
  return new Intl.DateTimeFormat(w.locale, {
    timeZone: w.timeZone,
    year: 'numeric',
    month: w.month,
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  })
    .format(new Date(at))
    .replace(/\s/gu, ' '); // ICU puts (narrow) no-break spaces in some locales; plain ones survive every mail client
}

function subjectOf(w: TWords, d: TAlertMailData): string {
  return `[Tessera][${d.level ? w.levels[d.level] : w.notice}] ${d.ruleName} — ${d.deviceName || d.tangramId}`;
}

function factLines(language: TLanguage, d: TAlertMailData): string[] {
  const w = WORDS[language];
  const l = w.labels;
  return [
    `${l.message}: ${d.message}`,
    `${l.project}: ${d.projectName}`,
    `${l.device}: ${d.deviceName ? `${d.deviceName} (${d.tangramId})` : d.tangramId}`,
    ...(d.trigger ? [`${l.trigger}: ${d.trigger.key} = ${d.trigger.value}`] : []),
    `${l.time}: ${formatAlertTime(language, d.at)}`,
    `${l.reason}: ${w.reasons[d.reason]}`,
    `${l.link}: ${d.link}`,
  ];
}

/** Renders the alert mail for a reader of `language`: subject "[Tessera][level] rule — device", plain-text body. */
export function renderAlertMail(language: TLanguage, d: TAlertMailData): { subject: string; text: string } {
  const w = WORDS[language];
  const lines = [`${w.reasons[d.reason]}: ${d.ruleName}`, '', ...factLines(language, d), '', w.footer, ''];
  return { subject: subjectOf(w, d), text: lines.join('\n') };
}

/** The LINE text of the same notification for a reader of `language`: the subject line, then the facts. */
export function renderAlertLine(language: TLanguage, d: TAlertMailData): string {
  return [subjectOf(WORDS[language], d), ...factLines(language, d)].join('\n');
}

/**
 * The browser notification of the same notification for a reader of `language` (Web Push, the service worker shows
 * it): the subject as title; message, device, trigger and time as the body (a notification shows a few lines);
 * a click opens the alert history of the device; one tag per alert, so a repeat replaces the earlier one.
 */
export function renderAlertPush(language: TLanguage, d: TAlertMailData & { alertId: number | null }): TWebPushPayload {
  const w = WORDS[language];
  const l = w.labels;
  const body = [
    d.message,
    `${l.device}: ${d.deviceName || d.tangramId}`,
    ...(d.trigger ? [`${l.trigger}: ${d.trigger.key} = ${d.trigger.value}`] : []),
    formatAlertTime(language, d.at),
  ];
  return { title: subjectOf(w, d), body: body.join('\n'), url: d.link, tag: d.alertId === null ? `notify-${d.at}` : `alert-${d.alertId}` };
}

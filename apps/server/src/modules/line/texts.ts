/**
 * What the bot and test pushes say (docs/decisions/line.md "texts"). LINE users and group chats have no language in
 * Tessera, so texts to them are zh-TW (the default, §4); texts to a known account use the account's language.
 */
import type { TLanguage } from '@tessera/contracts';

/** The bot's replies in a 1:1 chat (always zh-TW: the LINE user is not yet known as an account). */
export const BOT_TEXTS = {
  welcome: '感謝加入 Tessera 通知！輸入「綁定」即可連結您的 Tessera 帳號，之後就能在這裡收到告警推播。',
  linkUrl: (url: string) => `請在 10 分鐘內開啟以下網址，登入 Tessera 並確認連結帳號：\n${url}`,
  linkFailed: '帳號連結未完成，請再輸入「綁定」重試。',
} as const;

const LINKED: Record<TLanguage, (email: string) => string> = {
  'zh-TW': (email) => `已連結 Tessera 帳號 ${email}，之後的告警會推播到這裡。`,
  en: (email) => `Linked to Tessera account ${email}. Alerts will be pushed here.`,
};

/** The bot's reply once an account is linked, in the account's language. */
export function linkedText(language: TLanguage, email: string): string {
  return LINKED[language](email);
}

const TEST_PUSH: Record<TLanguage, (group: string) => string> = {
  'zh-TW': (group) => `Tessera 測試推播：推播群組「${group}」。收到這則訊息，表示這裡會收到此群組的告警。`,
  en: (group) => `Tessera test push: notification group "${group}". Receiving it means its alerts reach you here.`,
};

/** The text of a group's test push for a reader of `language`. */
export function testPushText(language: TLanguage, group: string): string {
  return TEST_PUSH[language](group);
}

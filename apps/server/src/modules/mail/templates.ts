/**
 * Mail templates of the auth flows (spec §7 verify-email, forgot-pwd; §4 language zh-TW default, en). The code is
 * in the subject and in the body so that a reader sees it in a notification preview.
 */
import { VERIFY_CODE_TTL_MS, type TLanguage } from '@tessera/contracts';

/** Which code mail: registration (verify-email) or password reset (forgot-pwd, verify-email purpose reset). */
export type TCodeMailKind = 'register' | 'reset';

type TTemplate = (code: string, minutes: number) => { subject: string; text: string };

const TEMPLATES: Record<TLanguage, Record<TCodeMailKind, TTemplate>> = {
  'zh-TW': {
    register: (code, minutes) => ({
      subject: `Tessera 驗證碼：${code}`,
      text: `您的 Tessera 註冊驗證碼是 ${code}，${minutes} 分鐘內有效。\n若您沒有申請註冊，請忽略這封信。\n`,
    }),
    reset: (code, minutes) => ({
      subject: `Tessera 重設密碼驗證碼：${code}`,
      text: `您的 Tessera 重設密碼驗證碼是 ${code}，${minutes} 分鐘內有效。\n若您沒有申請重設密碼，請忽略這封信，您的密碼不會改變。\n`,
    }),
  },
  en: {
    register: (code, minutes) => ({
      subject: `Your Tessera verification code: ${code}`,
      text: `Your Tessera sign-up verification code is ${code}. It is valid for ${minutes} minutes.\nIf you did not ask to sign up, ignore this mail.\n`,
    }),
    reset: (code, minutes) => ({
      subject: `Your Tessera password reset code: ${code}`,
      text: `Your Tessera password reset code is ${code}. It is valid for ${minutes} minutes.\nIf you did not ask to reset your password, ignore this mail; your password stays the same.\n`,
    }),
  },
};

/** Renders the `kind` code mail in `language`: `{ subject, text }` (plain text), both holding `code`. */
export function renderCodeMail(kind: TCodeMailKind, language: TLanguage, code: string): { subject: string; text: string } {
  return TEMPLATES[language][kind](code, Math.round(VERIFY_CODE_TTL_MS / 60_000));
}

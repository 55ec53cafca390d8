/** The language switch (zh-TW / English) of the header and the login screens. */
import { LANGUAGES, type TLanguage } from '@tessera/contracts';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/language';

/** Each language's name in itself, as the switch and the phone's account menu show it. */
export const LANGUAGE_LABELS: Record<TLanguage, string> = { 'zh-TW': '繁體中文', en: 'English' };

/** Switches i18n, antd, dayjs and the stored/profile language at once. */
export function LanguageSwitch() {
  const { i18n } = useTranslation();
  return (
    <Segmented<TLanguage>
      data-testid="language-switch"
      size="small"
      value={i18n.language === 'en' ? 'en' : 'zh-TW'}
      options={LANGUAGES.map((l) => ({ value: l, label: <span data-testid={`language-${l}`}>{LANGUAGE_LABELS[l]}</span> }))}
      onChange={(l) => void changeLanguage(l)}
    />
  );
}

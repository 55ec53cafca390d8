/** Name and language of the account (GET/PUT profile); a new language applies to the console at once. */
import { LANGUAGES, type TLanguage, type TProfile, type TProfileUpdate, ZProfileUpdate } from '@tessera/contracts';
import { App, Button, Descriptions, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/language';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { zodRule } from '../../lib/zodRules';
import { useUpdateProfile } from './api';

const LANGUAGE_LABELS: Record<TLanguage, string> = { 'zh-TW': '繁體中文', en: 'English' };

/** The profile card's form. */
export function ProfileForm({ profile }: { profile: TProfile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const update = useUpdateProfile();
  const [dirty, setDirty] = useState(false);
  useUnsavedChangesPrompt(dirty);
  const submit = (values: TProfileUpdate) =>
    update.mutate(values, {
      onSuccess: () => {
        setDirty(false);
        void message.success(t('common.saved'));
        if (values.language) void changeLanguage(values.language, false);
      },
    });
  return (
    <>
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('common.email')}>{profile.email}</Descriptions.Item>
        <Descriptions.Item label={t('profile.tenant')}>{profile.tenant_name}</Descriptions.Item>
        <Descriptions.Item label={t('profile.level')}>{t(`profile.levels.${profile.level}`)}</Descriptions.Item>
      </Descriptions>
      <Form
        layout="vertical"
        initialValues={{ name: profile.name, language: profile.language }}
        onFinish={submit}
        onValuesChange={() => setDirty(true)}
        style={{ maxWidth: 400 }}
      >
        <Form.Item name="name" label={t('common.name')} rules={[zodRule(ZProfileUpdate, 'name', t)]}>
          <Input data-testid="profile-name" />
        </Form.Item>
        <Form.Item name="language" label={t('profile.language')}>
          <Select data-testid="profile-language" options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABELS[l] }))} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="profile-submit">
          {t('common.save')}
        </Button>
      </Form>
    </>
  );
}

/**
 * The code item of the sign-up form (spec §7 verify-email, purpose `register`): the mailed 6-digit code and the
 * "send code" button beside it. The button first checks the form's `email` item, mails a code to it, then stays
 * disabled with a countdown for RESEND_CODE_COOLDOWN_MS while that code is fresh (docs/decisions/auth.md "Sign-up
 * screens").
 */
import { VERIFY_CODE_TTL_MS, ZRegisterRequest } from '@tessera/contracts';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '../../lib/session';
import { zodRule } from '../../lib/zodRules';
import { useSendRegisterCode } from './api';
import { resendAvailableAt, type TCodeSent } from './countdown';
import { authErrorKey } from './errorMessages';
import { useSecondsLeft } from './useSecondsLeft';

const CODE_TTL_MIN = VERIFY_CODE_TTL_MS / 60_000;

/** The `code` item and its "send code" button; used inside the sign-up form (reads its `email` item). */
export function RegisterCodeField() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const email: string = Form.useWatch('email', form) ?? '';
  const sendCode = useSendRegisterCode();
  const [sent, setSent] = useState<TCodeSent | null>(null);
  const availableAt = resendAvailableAt(sent, email);
  const secondsLeft = useSecondsLeft(availableAt);

  const send = async () => {
    const values = await form.validateFields(['email']).catch(() => null);
    if (!values) return;
    const to: string = values.email;
    sendCode.mutate({ email: to, language: getLanguage() }, { onSuccess: () => setSent({ email: to, sentAt: Date.now() }) });
  };
  const label =
    availableAt === null
      ? t('auth.sendCode')
      : secondsLeft > 0
        ? t('auth.register.resendIn', { seconds: secondsLeft })
        : t('auth.register.resend');

  return (
    <>
      <Form.Item
        label={t('auth.code')}
        extra={
          availableAt !== null && (
            <Typography.Text type="secondary" data-testid="register-code-sent">
              {t('auth.register.codeSentTo', { email: sent?.email ?? email, minutes: CODE_TTL_MIN })}
            </Typography.Text>
          )
        }
      >
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={[zodRule(ZRegisterRequest, 'code', t)]}>
            <Input data-testid="register-code" maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
          </Form.Item>
          <Button onClick={send} loading={sendCode.isPending} disabled={secondsLeft > 0} data-testid="register-send-code">
            {label}
          </Button>
        </Space.Compact>
      </Form.Item>
      {sendCode.isError && (
        <Alert
          type="error"
          showIcon
          title={t(authErrorKey(sendCode.error))}
          style={{ marginBottom: 16 }}
          data-testid="register-code-error"
        />
      )}
    </>
  );
}

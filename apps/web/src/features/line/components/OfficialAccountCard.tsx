/**
 * The Line official account card (vendor; spec §3 "channel ID, secret, access token, bot basic ID"): saved secrets
 * show only their last 4 characters and stay as they are when their fields are left empty; the webhook URL to paste
 * into the LINE Developers console, with a copy button.
 */
import { type TLineOfficialAccountInput, ZLineOfficialAccountInput } from '@tessera/contracts';
import { Alert, App, Button, Card, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/zodRules';
import { useDeleteOfficialAccount, useOfficialAccount, useSaveOfficialAccount } from '../api';
import { lineErrorKey } from '../lineErrors';

type TFormValues = Record<keyof TLineOfficialAccountInput, string | undefined>;

/** Empty secret fields mean "keep the saved one": they are left out of the request. */
function toInput(values: TFormValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string' && v.trim() !== '')) as Record<string, string>;
}

/** The official-account settings card. */
export function OfficialAccountCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TFormValues>();
  const state = useOfficialAccount();
  const save = useSaveOfficialAccount();
  const remove = useDeleteOfficialAccount();
  const account = state.data?.account ?? null;

  useEffect(() => {
    form.setFieldsValue({
      channel_id: account?.channel_id,
      bot_basic_id: account?.bot_basic_id,
      channel_secret: undefined,
      access_token: undefined,
    });
  }, [account, form]);

  const rule = (field: keyof TLineOfficialAccountInput) => [zodRule(ZLineOfficialAccountInput, field, t, (v) => toInput(v as TFormValues))];
  const secretRule = (field: 'channel_secret' | 'access_token') => [
    ...rule(field),
    ...(account ? [] : [{ required: true, message: t('validation.required') }]),
  ];
  const submit = (values: TFormValues) =>
    save.mutate(ZLineOfficialAccountInput.parse(toInput(values)), {
      onSuccess: () => void message.success(t('common.saved')),
      onError: (e) => void message.error(t(lineErrorKey(e))),
    });

  return (
    <Card size="small" title={t('line.account.title')} loading={state.isLoading} data-testid="line-account-card">
      <Typography.Paragraph type="secondary">{t('line.account.intro')}</Typography.Paragraph>
      <Form<TFormValues> form={form} layout="vertical" onFinish={submit} requiredMark={false} style={{ maxWidth: 560 }}>
        <Form.Item name="channel_id" label={t('line.account.channelId')} extra={t('line.account.channelIdHelp')} rules={rule('channel_id')}>
          <Input data-testid="line-channel-id" />
        </Form.Item>
        <Form.Item
          name="channel_secret"
          label={t('line.account.channelSecret')}
          extra={account ? t('line.account.keep', { masked: account.channel_secret }) : t('line.account.channelSecretHelp')}
          rules={secretRule('channel_secret')}
        >
          <Input.Password autoComplete="off" placeholder={account?.channel_secret} data-testid="line-channel-secret" />
        </Form.Item>
        <Form.Item
          name="access_token"
          label={t('line.account.accessToken')}
          extra={account ? t('line.account.keep', { masked: account.access_token }) : undefined}
          rules={secretRule('access_token')}
        >
          <Input.Password autoComplete="off" placeholder={account?.access_token} data-testid="line-access-token" />
        </Form.Item>
        <Form.Item
          name="bot_basic_id"
          label={t('line.account.botBasicId')}
          extra={t('line.account.botBasicIdHelp')}
          rules={rule('bot_basic_id')}
        >
          <Input data-testid="line-bot-basic-id" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="line-account-save">
            {t('common.save')}
          </Button>
          {account && (
            <Popconfirm
              title={t('line.account.deleteConfirm')}
              onConfirm={() => remove.mutate(undefined, { onError: () => void message.error(t('errors.saveFailed')) })}
              okButtonProps={{ 'data-testid': 'line-account-delete-confirm' }}
            >
              <Button danger data-testid="line-account-delete">
                {t('line.account.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Form>
      {account ? (
        <div style={{ marginTop: 16 }}>
          <Typography.Text strong>{t('line.account.webhookUrl')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: account.webhook_url }} code data-testid="line-webhook-url" style={{ marginBottom: 4 }}>
            {account.webhook_url}
          </Typography.Paragraph>
          <Typography.Text type="secondary">{t('line.account.webhookHelp')}</Typography.Text>
        </div>
      ) : (
        <Alert type="info" showIcon style={{ marginTop: 16 }} title={t('line.account.notSet')} />
      )}
    </Card>
  );
}

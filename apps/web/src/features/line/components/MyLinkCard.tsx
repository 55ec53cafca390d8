/**
 * The caller's own LINE link (every account; spec §3 "account link"): linked since when and to which LINE name, or
 * how to link (befriend the bot, send "綁定"); unlink after a confirmation.
 */
import { App, Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useAccountLinkStatus, useUnlinkAccount } from '../api';

/** The "my LINE link" card. */
export function MyLinkCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const status = useAccountLinkStatus();
  const unlink = useUnlinkAccount();
  const s = status.data;
  return (
    <Card size="small" title={t('line.myLink.title')} loading={status.isLoading} data-testid="line-my-link">
      {s?.linked ? (
        <Space wrap>
          <Tag color="green" data-testid="line-my-link-state">
            {t('line.myLink.linked', {
              name: s.line_name ?? t('line.myLink.someone'),
              time: dayjs(s.linked_at).format('YYYY-MM-DD HH:mm'),
            })}
          </Tag>
          <Popconfirm
            title={t('line.myLink.unlinkConfirm')}
            onConfirm={() => unlink.mutate(undefined, { onError: () => void message.error(t('errors.saveFailed')) })}
            okButtonProps={{ 'data-testid': 'line-unlink-confirm' }}
          >
            <Button size="small" danger data-testid="line-unlink">
              {t('line.myLink.unlink')}
            </Button>
          </Popconfirm>
        </Space>
      ) : (
        <Space direction="vertical">
          <Typography.Text data-testid="line-my-link-state">{t('line.myLink.notLinked')}</Typography.Text>
          <Typography.Text type="secondary">
            {s?.bot_basic_id ? t('line.myLink.howTo', { bot: s.bot_basic_id }) : t('line.myLink.noBot')}
          </Typography.Text>
        </Space>
      )}
    </Card>
  );
}

/**
 * /line-notify/link?linkToken=… (docs/decisions/line.md "account link"): the page the bot's reply opens. The
 * logged-in account confirms, the server makes a one-time nonce, and the browser goes to LINE's accountLink URL,
 * where LINE checks that the LINE user who asked is the one linking and tells the server by webhook.
 */
import { LinkOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../lib/useSession';
import { useStartAccountLink } from '../api';
import { lineErrorKey } from '../lineErrors';

/** The link confirmation page. */
export default function LinkConfirmPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const linkToken = params.get('linkToken')?.trim() ?? '';
  const { email } = useSession();
  const start = useStartAccountLink();
  const confirm = () => start.mutate(linkToken, { onSuccess: ({ url }) => window.location.assign(url) });
  return (
    <Card title={t('line.link.title')} style={{ maxWidth: 560 }}>
      {linkToken ? (
        <Space direction="vertical" size="middle">
          <Typography.Paragraph data-testid="line-link-text">{t('line.link.confirm', { email })}</Typography.Paragraph>
          <Button
            type="primary"
            icon={<LinkOutlined />}
            loading={start.isPending || start.isSuccess}
            onClick={confirm}
            data-testid="line-link-confirm"
          >
            {t('line.link.button')}
          </Button>
          {start.isError && (
            <Alert
              type="error"
              showIcon
              title={`${t('line.link.failed')}: ${t(lineErrorKey(start.error, 'errors.saveFailed'))}`}
              data-testid="line-link-error"
            />
          )}
        </Space>
      ) : (
        <Alert type="warning" showIcon title={t('line.link.missing')} data-testid="line-link-missing" />
      )}
    </Card>
  );
}

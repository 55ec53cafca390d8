/**
 * "My alert notifications" card of the project's notification tab: the caller's own subscription for every device of the project it may
 * see. A device's own subscription overrides it (device detail, app-rules tab).
 */
import { BellOutlined } from '@ant-design/icons';
import { App, Alert, Card, Skeleton, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useProjectSubscription, useSaveProjectSubscription } from './api';
import { useAccountLinkStatus } from '../line/api';
import { SubscriptionForm } from './SubscriptionForm';

/** The card; `data-testid="project-subscription"`. */
export function ProjectSubscriptionCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const sub = useProjectSubscription(projectId);
  const link = useAccountLinkStatus();
  const save = useSaveProjectSubscription(projectId);
  const initial = useMemo(() => ({ levels: sub.data?.levels ?? [], channels: sub.data?.channels ?? [] }), [sub.data]);

  return (
    <Card
      size="small"
      title={
        <span>
          <BellOutlined /> {t('notifications.project.title')}
        </span>
      }
      style={{ maxWidth: 640 }}
      data-testid="project-subscription"
    >
      <Typography.Paragraph type="secondary">{t('notifications.project.hint')}</Typography.Paragraph>
      {sub.isLoading && <Skeleton active paragraph={{ rows: 3 }} />}
      {sub.isError && <Alert type="error" showIcon message={t('errors.loadFailed')} />}
      {sub.data && (
        <SubscriptionForm
          initial={initial}
          lineLinked={link.data?.linked ?? false}
          saving={save.isPending}
          onSave={(body) =>
            save.mutate(body, {
              onSuccess: () => void message.success(t('common.saved')),
              onError: () => void message.error(t('errors.saveFailed')),
            })
          }
          testId="project-subscription"
        />
      )}
    </Card>
  );
}

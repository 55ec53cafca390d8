/**
 * /project/detail/{id}/notification: the project's notification email list (add, remove, save; asks before
 * leaving unsaved changes) and "send test mail", which mails every saved address and says how many were queued; the
 * caller's own subscription to the project; the project's outbound webhooks and LoRaWAN network-server integrations.
 */
import { DeleteOutlined, MailOutlined, PlusOutlined } from '@ant-design/icons';
import { NOTIFICATION_EMAILS_MAX } from '@tessera/contracts';
import { Alert, App, Button, Empty, Flex, Form, Input, List, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { ProjectSubscriptionCard } from '../notifications/ProjectSubscriptionCard';
import { LorawanCard } from '../lorawan/LorawanCard';
import { WebhooksCard } from '../webhooks/WebhooksCard';
import { useNotificationEmails, useSaveNotificationEmails, useSendTestMail } from './api';
import { checkEmailDraft } from './emailDraft';

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The notification tab. */
export default function NotificationTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const projectId = Number(useParams().id);
  const saved = useNotificationEmails(projectId);
  const save = useSaveNotificationEmails(projectId);
  const sendTest = useSendTestMail(projectId);
  const [list, setList] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const savedList = saved.data?.emails;
  useEffect(() => {
    if (savedList) setList(savedList);
  }, [savedList]);
  const dirty = !!savedList && !same(list, savedList);
  useUnsavedChangesPrompt(dirty);

  const add = () => {
    const checked = checkEmailDraft(draft, list);
    if (!checked.ok) return setError(t(`projectSettings.notification.${checked.reason}`, { max: NOTIFICATION_EMAILS_MAX }));
    setList([...list, checked.email]);
    setDraft('');
    setError(null);
  };
  const submit = () =>
    save.mutate(
      { emails: list },
      { onSuccess: () => void message.success(t('common.saved')), onError: () => void message.error(t('errors.saveFailed')) },
    );

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%', maxWidth: 640 }}>
      <Typography.Text type="secondary">{t('projectSettings.notification.hint', { max: NOTIFICATION_EMAILS_MAX })}</Typography.Text>
      <Form.Item validateStatus={error ? 'error' : undefined} help={error} style={{ marginBottom: 0 }}>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={draft}
            placeholder={t('projectSettings.notification.placeholder')}
            onChange={(e) => setDraft(e.target.value)}
            onPressEnter={add}
            data-testid="notification-email-input"
          />
          <Button icon={<PlusOutlined />} onClick={add} data-testid="notification-email-add">
            {t('projectSettings.notification.add')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <List
        bordered
        loading={saved.isLoading}
        dataSource={list}
        locale={{ emptyText: <Empty description={t('projectSettings.notification.empty')} /> }}
        renderItem={(email) => (
          <List.Item
            data-testid="notification-email"
            actions={[
              <Button
                key="remove"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                onClick={() => setList(list.filter((x) => x !== email))}
                data-testid={`notification-email-remove-${email}`}
              />,
            ]}
          >
            {email}
          </List.Item>
        )}
      />
      {saved.isError && <Alert type="error" message={t('errors.loadFailed')} />}
      <Flex gap={8} wrap>
        <Button type="primary" disabled={!dirty} loading={save.isPending} onClick={submit} data-testid="notification-save">
          {t('common.save')}
        </Button>
        <Button
          icon={<MailOutlined />}
          disabled={dirty || !savedList?.length}
          loading={sendTest.isPending}
          onClick={() => sendTest.mutate()}
          data-testid="notification-test"
        >
          {t('projectSettings.notification.test')}
        </Button>
      </Flex>
      {dirty && <Typography.Text type="warning">{t('projectSettings.notification.saveFirst')}</Typography.Text>}
      {sendTest.data && (
        <Alert
          type="success"
          showIcon
          message={t('projectSettings.notification.testQueued', { count: sendTest.data.queued })}
          data-testid="notification-test-result"
        />
      )}
      <ProjectSubscriptionCard projectId={projectId} />
      <WebhooksCard projectId={projectId} />
      <LorawanCard projectId={projectId} />
    </Space>
  );
}

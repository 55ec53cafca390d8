/**
 * /project/detail/{id}/custom-page (spec §2 project tab custom-page, §5 title required, max 32): the vendor uploads
 * the project's HTML page with its title, changes the title or replaces the file, deletes it (after a confirm), and
 * previews it sandboxed, fed with the live data of a device of the project.
 */
import { DeleteOutlined } from '@ant-design/icons';
import { type TCustomPage, CustomPageErrorCode, CUSTOM_PAGE_MAX_BYTES, MAX_PAGE_LIMIT, ZCustomPageFields } from '@tessera/contracts';
import { Alert, App, Button, Descriptions, Empty, Flex, Form, Input, Popconfirm, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { HttpError } from '../../lib/http';
import { useUnsavedChangesPrompt } from '../../lib/useUnsavedChangesPrompt';
import { zodRule } from '../../lib/zodRules';
import { formatLocalTime } from '../devices/model/format';
import { useProjectDevices } from '../projects/api';
import { useCustomPage, useDeleteCustomPage, useSaveCustomPage } from './api';
import { CustomPageFrame } from './CustomPageFrame';
import { HtmlFileField } from './HtmlFileField';

/** The custom-page tab. */
export default function CustomPageTab() {
  const { t } = useTranslation();
  const projectId = Number(useParams().id);
  const page = useCustomPage(projectId);
  if (page.isPending) return <Spin data-testid="custom-page-loading" />;
  if (page.isError) return <Alert type="error" message={t('errors.loadFailed')} />;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('customPages.sandboxNote')}</Typography.Text>
      {!page.data && <Empty description={t('customPages.empty')} data-testid="custom-page-empty" />}
      <PageForm projectId={projectId} page={page.data} key={page.data?.sha256 ?? 'new'} />
      {page.data && <PagePreview projectId={projectId} page={page.data} />}
    </Space>
  );
}

/** Title and file: uploads a new page, or saves a new title and/or file of the existing one. */
function PageForm({ projectId, page }: { projectId: number; page: TCustomPage | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ title: string }>();
  const [file, setFile] = useState<File | null>(null);
  const save = useSaveCustomPage(projectId);
  const title = Form.useWatch('title', form);
  const dirty = !!file || (title !== undefined && title !== (page?.title ?? ''));
  useUnsavedChangesPrompt(dirty);

  const errorText = (e: unknown) => {
    if (e instanceof HttpError && e.code === CustomPageErrorCode.TooLarge)
      return t('customPages.fileErrors.too_large', { max: CUSTOM_PAGE_MAX_BYTES / 1024 });
    if (e instanceof HttpError && e.code === CustomPageErrorCode.Type) return t('customPages.fileErrors.not_html');
    return `${t('errors.saveFailed')}: ${(e as Error).message}`;
  };
  const submit = ({ title: value }: { title: string }) => {
    if (!page && !file) return void message.error({ content: t('customPages.fileRequired'), key: 'page-save' });
    save.mutate(
      { title: value.trim(), file: file ?? undefined },
      {
        onSuccess: (saved) => {
          setFile(null);
          form.setFieldsValue({ title: saved.title });
          void message.success({ content: t('common.saved'), key: 'page-save' });
        },
        onError: (e) => void message.error({ content: errorText(e), key: 'page-save' }),
      },
    );
  };

  return (
    <Form form={form} layout="vertical" initialValues={{ title: page?.title ?? '' }} onFinish={submit} style={{ maxWidth: 560 }}>
      <Form.Item name="title" label={t('customPages.title')} rules={[zodRule(ZCustomPageFields, 'title', t)]}>
        <Input data-testid="custom-page-title" />
      </Form.Item>
      <Form.Item label={t('customPages.file')} extra={t('customPages.fileHint', { max: CUSTOM_PAGE_MAX_BYTES / 1024 })}>
        <HtmlFileField file={file} onChange={setFile} replacing={!!page} />
      </Form.Item>
      <Button type="primary" htmlType="submit" disabled={!dirty} loading={save.isPending} data-testid="custom-page-save">
        {page ? t('common.save') : t('customPages.upload')}
      </Button>
    </Form>
  );
}

/** The saved page's details, delete, and the preview with a device of the project as its data source. */
function PagePreview({ projectId, page }: { projectId: number; page: TCustomPage }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const remove = useDeleteCustomPage(projectId);
  const devices = useProjectDevices(projectId, { page: 1, limit: MAX_PAGE_LIMIT });
  const list = devices.data?.data ?? [];
  const [picked, setPicked] = useState<string>();
  const device = list.find((d) => d.tangram_id === picked) ?? list[0];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Descriptions size="small" column={{ xs: 1, md: 3 }} bordered>
        <Descriptions.Item label={t('customPages.title')}>
          <span data-testid="custom-page-saved-title">{page.title}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('customPages.size')}>{(page.size_bytes / 1024).toFixed(1)} KB</Descriptions.Item>
        <Descriptions.Item label={t('customPages.updatedAt')}>{formatLocalTime(page.updated_at)}</Descriptions.Item>
      </Descriptions>
      <Flex gap={12} align="center" wrap justify="space-between">
        <Space wrap>
          <Typography.Text strong>{t('customPages.preview')}</Typography.Text>
          <Select
            style={{ minWidth: 260 }}
            value={device?.tangram_id}
            placeholder={t('customPages.noDevices')}
            aria-label={t('customPages.noDevices')}
            disabled={list.length === 0}
            onChange={setPicked}
            options={list.map((d) => ({ value: d.tangram_id, label: `${d.name} (${d.tangram_id})` }))}
            data-testid="custom-page-device"
          />
        </Space>
        <Popconfirm
          title={t('customPages.deleteConfirm')}
          okText={t('common.delete')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'custom-page-delete-ok' }}
          onConfirm={() => remove.mutateAsync().then(() => void message.success(t('customPages.deleted')))}
        >
          <Button danger icon={<DeleteOutlined />} loading={remove.isPending} data-testid="custom-page-delete">
            {t('customPages.delete')}
          </Button>
        </Popconfirm>
      </Flex>
      {list.length === 0 && !devices.isPending && <Alert type="info" showIcon message={t('customPages.noDevicesHint')} />}
      <CustomPageFrame
        viewUrl={page.view_url}
        viewExpiresAt={page.view_expires_at}
        title={page.title}
        device={device ? { tangram_id: device.tangram_id, name: device.name, nickname: device.nickname } : null}
      />
    </Space>
  );
}

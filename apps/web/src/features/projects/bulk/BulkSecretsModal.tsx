/**
 * The one-time view of a bulk registration's secrets (stored hashed: never shown again): a table and a "download CSV"
 * (`tangram_id,serial_number,secret`). Closing forgets them; closing before downloading asks first.
 */
import { DownloadOutlined } from '@ant-design/icons';
import type { TDeviceRegistered } from '@tessera/contracts';
import { Alert, App, Button, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveText } from '../../../lib/saveFile';
import { secretsCsv, secretsFileName } from './secretsCsv';

interface TProps {
  projectId: number;
  /** The registration answer; the modal is open while it is set. */
  devices: TDeviceRegistered[] | null;
  /** Forgets the secrets. */
  onClose: () => void;
}

/** The modal. */
export function BulkSecretsModal({ projectId, devices, onClose }: TProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [downloaded, setDownloaded] = useState(false);
  const close = () => {
    setDownloaded(false);
    onClose();
  };
  const download = () => {
    if (!devices) return;
    saveText(secretsFileName(projectId, new Date()), secretsCsv(devices));
    setDownloaded(true);
  };
  const askClose = () => {
    if (downloaded) return close();
    modal.confirm({
      title: t('projects.bulk.closeUnsavedTitle'),
      content: t('projects.bulk.closeUnsavedContent'),
      okText: t('projects.bulk.closeAnyway'),
      okButtonProps: { danger: true, 'data-testid': 'bulk-secrets-close-confirm' },
      onOk: close,
    });
  };
  return (
    <Modal
      open={devices !== null}
      destroyOnHidden
      width={900}
      title={t('projects.bulk.registeredTitle', { count: devices?.length ?? 0 })}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={[
        <Button key="download" type="primary" icon={<DownloadOutlined />} onClick={download} data-testid="bulk-secrets-download">
          {t('projects.bulk.download')}
        </Button>,
        <Button key="close" onClick={askClose} data-testid="bulk-secrets-close">
          {t('projects.bulk.close')}
        </Button>,
      ]}
    >
      <Alert
        type="warning"
        showIcon
        title={t('projects.bulk.secretsWarning')}
        style={{ marginBottom: 16 }}
        data-testid="bulk-secrets-warning"
      />
      <Table<TDeviceRegistered>
        rowKey="id"
        size="small"
        dataSource={devices ?? []}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        columns={[
          {
            title: t('projects.devices.tangramId'),
            dataIndex: 'tangram_id',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          { title: t('projects.devices.serial'), dataIndex: 'sno' },
          { title: t('common.name'), dataIndex: 'name' },
          {
            title: t('projects.devices.secret'),
            dataIndex: 'device_secret',
            render: (v: string) => (
              <Typography.Text code copyable data-testid="bulk-secret">
                {v}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}

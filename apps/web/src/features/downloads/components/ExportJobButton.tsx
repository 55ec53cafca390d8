/**
 * "Export" from a page that shows telemetry (the history chart, analytics): a button opening the new-export form
 * prefilled with what the page shows; once the job is made, a message links to the download centre, where it is
 * packaged and followed (docs/downloads.md).
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, message } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ExportModal, type TExportPreset } from './ExportModal';

/** Props: the preset, the button's label and size, whether it is disabled, and the test id prefix (`-open` follows). */
export interface TExportJobButtonProps {
  preset: TExportPreset;
  label: ReactNode;
  testId: string;
  size?: 'small' | 'middle';
  disabled?: boolean;
}

/** The button and its form. */
export function ExportJobButton({ preset, label, testId, size, disabled }: TExportJobButtonProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size={size} icon={<DownloadOutlined />} disabled={disabled} onClick={() => setOpen(true)} data-testid={testId}>
        {label}
      </Button>
      <ExportModal
        open={open}
        preset={preset}
        onClose={() => setOpen(false)}
        onCreated={() => {
          setOpen(false);
          void message.success(
            <span>
              {t('downloads.queued')}
              <Button type="link" size="small" onClick={() => navigate('/download')} data-testid={`${testId}-open`}>
                {t('downloads.openCentre')}
              </Button>
            </span>,
          );
        }}
      />
    </>
  );
}

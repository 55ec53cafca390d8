/**
 * Picks the page's HTML file and checks it in the browser with the server's own rule (contracts `checkHtmlFile`:
 * UTF-8 HTML, at most CUSTOM_PAGE_MAX_BYTES), so a wrong file is refused before it is sent.
 */
import { FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { checkHtmlFile, CUSTOM_PAGE_MAX_BYTES } from '@tessera/contracts';
import { App, Button, Flex, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';

interface TProps {
  file: File | null;
  onChange: (file: File) => void;
  /** True when the project already has a page (the button replaces its file). */
  replacing: boolean;
}

/** The file picker and the chosen file's name. */
export function HtmlFileField({ file, onChange, replacing }: TProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Flex gap={12} align="center" wrap>
      <Upload
        accept=".html,.htm,text/html"
        showUploadList={false}
        maxCount={1}
        beforeUpload={async (picked) => {
          const check = checkHtmlFile(new Uint8Array(await picked.arrayBuffer()));
          if (check.ok) onChange(picked);
          else
            void message.error({
              content: t(`customPages.fileErrors.${check.reason}`, { max: CUSTOM_PAGE_MAX_BYTES / 1024 }),
              key: 'page-file',
            });
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />} data-testid="custom-page-file">
          {replacing ? t('customPages.replaceFile') : t('customPages.chooseFile')}
        </Button>
      </Upload>
      {file && (
        <Typography.Text data-testid="custom-page-file-name">
          <FileTextOutlined /> {file.name} ({(file.size / 1024).toFixed(1)} KB)
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * The product image of the product form (spec §5 "Image at most 2 MB", §8 "image over 2MB"): picks a file, refuses
 * one over MAX_IMAGE_BYTES before sending, uploads it (image/upload) and previews it. A form control whose value is
 * the uploaded `image_url` (or null).
 */
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { IMAGE_MIME_TYPES, ImageErrorCode, isImageSizeAllowed } from '@tessera/contracts';
import { App, Button, Flex, Image, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http';
import { useUploadImage } from './api';

/** Props of an antd Form control. */
interface TProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
}

/** Upload button, preview and remove button. */
export function ProductImageField({ value, onChange }: TProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const upload = useUploadImage();

  const errorText = (e: unknown) => {
    if (e instanceof HttpError && e.code === ImageErrorCode.TooLarge) return t('products.imageTooLarge');
    if (e instanceof HttpError && e.code === ImageErrorCode.Type) return t('products.imageType');
    return `${t('errors.saveFailed')}: ${(e as Error).message}`;
  };

  return (
    <Flex gap={12} align="center" data-testid="product-image-field">
      {value && (
        <Image
          src={value}
          alt={t('products.image')}
          width={64}
          height={64}
          style={{ objectFit: 'contain' }}
          data-testid="product-image-preview"
        />
      )}
      <Upload
        accept={IMAGE_MIME_TYPES.join(',')}
        showUploadList={false}
        maxCount={1}
        beforeUpload={(file) => {
          if (isImageSizeAllowed(file.size)) return true;
          void message.error({ content: t('products.imageTooLarge'), key: 'image-error' });
          return Upload.LIST_IGNORE;
        }}
        customRequest={({ file, onSuccess, onError }) =>
          upload.mutate(file as Blob, {
            onSuccess: (res) => {
              onChange?.(res.image_url);
              onSuccess?.(res);
            },
            onError: (e) => {
              void message.error({ content: errorText(e), key: 'image-error' });
              onError?.(e);
            },
          })
        }
      >
        <Button icon={<UploadOutlined />} loading={upload.isPending} data-testid="product-image-upload">
          {value ? t('products.imageReplace') : t('products.imageUpload')}
        </Button>
      </Upload>
      {value && (
        <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)} data-testid="product-image-remove">
          {t('products.imageRemove')}
        </Button>
      )}
    </Flex>
  );
}

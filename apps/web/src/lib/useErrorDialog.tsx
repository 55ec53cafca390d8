/**
 * The error dialog of spec §8 "Device update failure: error dialog with error title and the server message", for any
 * save whose failure the user must acknowledge (device edit, inline renames). antd `Modal.error` through the app's
 * modal context (so it follows the theme and language); call the save with `{ quiet: true }` so the HTTP client's
 * own 403/5xx dialog does not show as well.
 */
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from './http';

/** The message to show for a failed call: the server's `message` when it sent one, else `fallback`. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError || error instanceof Error) return error.message || fallback;
  return fallback;
}

/** Answers `show(title, error)`: opens the error dialog with `title` and the server's message, and a confirm button. */
export function useErrorDialog(): (title: string, error: unknown) => void {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (title: string, error: unknown) => {
      modal.error({
        title,
        content: <span data-testid="error-dialog-message">{serverMessage(error, t('errors.saveFailed'))}</span>,
        okText: t('common.confirm'),
        okButtonProps: { 'data-testid': 'error-dialog-confirm' },
      });
    },
    [modal, t],
  );
}

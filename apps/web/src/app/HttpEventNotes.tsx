/**
 * What the HTTP client's events show (spec §8): the error dialog of a 403 or 500 and the note of a lost connection.
 * Loaded by Root.tsx with the first such event, so the login page does not download antd's modal and message to draw.
 */
import { Modal, message } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { THttpEvent } from '../lib/httpEvents';

/** An event this component shows (a logout is a navigation, done by Root.tsx itself). */
export type TShownHttpEvent = Exclude<THttpEvent, { type: 'logout' }>;

/** Shows each of `events` once (they are handed over with `onShown`, which drops them from the list). */
export default function HttpEventNotes({ events, onShown }: { events: TShownHttpEvent[]; onShown: (count: number) => void }) {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const [messages, messageHolder] = message.useMessage();
  useEffect(() => {
    if (events.length === 0) return;
    for (const e of events) {
      if (e.type === 'offline') void messages.warning({ content: t('errors.offline'), key: 'offline' });
      else {
        modal.error({
          title: `${e.status} ${e.statusText || t(e.status === 403 ? 'errors.forbidden' : 'errors.server')}`,
          content: e.message,
          okText: t('common.confirm'),
          okButtonProps: { 'data-testid': 'error-dialog-confirm' },
        });
      }
    }
    onShown(events.length);
  }, [events, onShown, modal, messages, t]);
  return (
    <>
      {modalHolder}
      {messageHolder}
    </>
  );
}

/**
 * The one "unsaved changes" prompt of the console (spec §8 "unsaved changes"): while `dirty`, leaving the page
 * inside the console asks first (react-router's blocker + an antd confirm), and closing or reloading the tab gets
 * the browser's own prompt (beforeunload).
 */
import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/** Asks before leaving while `dirty` is true. Call once per edited form. */
export function useUnsavedChangesPrompt(dirty: boolean): void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('unsaved.title'),
      content: t('unsaved.content'),
      okText: t('unsaved.leave'),
      cancelText: t('unsaved.stay'),
      okButtonProps: { 'data-testid': 'unsaved-leave' },
      cancelButtonProps: { 'data-testid': 'unsaved-stay' },
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

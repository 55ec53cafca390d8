/**
 * The one "unsaved changes" prompt of the console (spec §8 "unsaved changes"): while `dirty`, leaving the page
 * inside the console asks first (react-router's blocker + an antd confirm), and closing or reloading the tab gets
 * the browser's own prompt (beforeunload).
 */
import { App } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * The "unsaved changes — leave anyway?" confirm itself, for closers that are not navigation (a drawer, a modal):
 * `onLeave` runs on "leave", `onStay` on "stay".
 */
export function confirmDiscard(
  modal: ReturnType<typeof App.useApp>['modal'],
  t: TFunction,
  onLeave: () => void,
  onStay?: () => void,
): void {
  modal.confirm({
    title: t('unsaved.title'),
    content: t('unsaved.content'),
    okText: t('unsaved.leave'),
    cancelText: t('unsaved.stay'),
    okButtonProps: { 'data-testid': 'unsaved-leave' },
    cancelButtonProps: { 'data-testid': 'unsaved-stay' },
    onOk: onLeave,
    onCancel: onStay,
  });
}

/** Asks before leaving while `dirty` is true. Call once per edited form. */
export function useUnsavedChangesPrompt(dirty: boolean): void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    confirmDiscard(
      modal,
      t,
      () => blocker.proceed(),
      () => blocker.reset(),
    );
  }, [blocker, modal, t]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

/**
 * The editor drawer every create/edit form of the console opens in, and its footer. The drawer never closes by
 * itself (no close button, mask click or Escape): the form's own Cancel decides, asking first when there are unsaved
 * changes (lib/useUnsavedChangesPrompt's confirmDiscard). Its content mounts only while open, so each opening starts
 * from the edited entity's values.
 */
import { Button, Drawer, Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link FormDrawer}: whether it is open, its title, and the form (rendered only while open). */
export interface TFormDrawerProps {
  open: boolean;
  title: ReactNode;
  /** Called after the drawer is gone (antd `onClose`; the drawer itself offers no way to close). */
  onClose: () => void;
  children: ReactNode;
}

/** A large drawer holding one form. */
export function FormDrawer({ open, title, onClose, children }: TFormDrawerProps) {
  return (
    <Drawer open={open} onClose={onClose} closable={false} maskClosable={false} keyboard={false} destroyOnHidden size="large" title={title}>
      {open && children}
    </Drawer>
  );
}

/** Props of {@link FormActions}: cancel, whether saving runs, whether there is anything to save, the test id prefix. */
export interface TFormActionsProps {
  onCancel: () => void;
  saving: boolean;
  dirty: boolean;
  /** `<prefix>-cancel` and `<prefix>-save` are the buttons' test ids. */
  testIdPrefix: string;
}

/** The form's footer: Cancel and Save (a submit button, enabled once something changed). */
export function FormActions({ onCancel, saving, dirty, testIdPrefix }: TFormActionsProps) {
  const { t } = useTranslation();
  return (
    <Flex justify="end" gap={8} style={{ marginTop: 24 }}>
      <Button onClick={onCancel} data-testid={`${testIdPrefix}-cancel`}>
        {t('common.cancel')}
      </Button>
      <Button type="primary" htmlType="submit" loading={saving} disabled={!dirty} data-testid={`${testIdPrefix}-save`}>
        {t('common.save')}
      </Button>
    </Flex>
  );
}

/**
 * The owner's answer to a request (allow or deny) or the revocation of an allowed one, with an optional note the
 * requester reads (≤ AUTHZ_TEXT_MAX characters). Revoking is destructive: its button is red.
 */
import { AUTHZ_TEXT_MAX, type TAuthzDecision, type TAuthzRequest } from '@tessera/contracts';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDecide } from '../api';
import { targetLabel } from './RequestParts';

/** What is being decided: the request and the decision; null when closed. */
export type TDeciding = {
  request: Pick<TAuthzRequest, 'id' | 'requester' | 'device' | 'project' | 'machine' | 'target'>;
  decision: Exclude<TAuthzDecision, 'cancel'>;
} | null;

/** The modal. */
export function DecideModal({ deciding, onClose }: { deciding: TDeciding; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const decide = useDecide();
  const [form] = Form.useForm<{ note: string }>();
  const what = deciding ? targetLabel(deciding.request, t) : '';
  const submit = ({ note }: { note?: string }) => {
    if (!deciding) return;
    decide.mutate(
      { id: deciding.request.id, decision: deciding.decision, note: note ?? '' },
      {
        onSuccess: () => {
          void message.success(t(`authz.done.${deciding.decision}`));
          onClose();
        },
        onError: (e) => void message.error(e.message),
      },
    );
  };
  return (
    <Modal
      open={deciding !== null}
      title={deciding ? t(`authz.decideTitle.${deciding.decision}`, { email: deciding.request.requester.email }) : ''}
      okText={deciding ? t(`authz.decisions.${deciding.decision}`) : ''}
      okButtonProps={{ danger: deciding?.decision !== 'allow', loading: decide.isPending, 'data-testid': 'authz-decide-ok' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{what}</Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false} onFinish={submit}>
        <Form.Item name="note" label={t('authz.note')} rules={[{ max: AUTHZ_TEXT_MAX }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} showCount maxLength={AUTHZ_TEXT_MAX} data-testid="authz-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

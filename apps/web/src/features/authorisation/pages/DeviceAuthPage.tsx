/**
 * /self-auth/devce-auth (spec §2 device authorisation, §4 "Authorisation requests … allowed or denied by the owner";
 * docs/decisions/authorisation.md). A user asks for a device — by Tangram ID or serial number, one device or its whole
 * project, with the code its project's method needs (a QR code's link fills the form in) — and follows its requests,
 * cancelling pending ones. A vendor answers the requests waiting for it (allow or deny with a note) and revokes access
 * it granted, after a confirmation.
 */
import { CheckOutlined, CloseOutlined, HistoryOutlined, StopOutlined } from '@ant-design/icons';
import {
  AUTHZ_DEVICE_TEXT_MAX,
  AUTHZ_PROOF_MAX,
  AUTHZ_TEXT_MAX,
  ErrorCode,
  guardRoute,
  type TAuthzHolder,
  type TAuthzRequest,
  type TAuthzRequestInput,
  type TAuthzTarget,
} from '@tessera/contracts';
import { Alert, App, Button, Card, Empty, Flex, Form, Input, Radio, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { rowTestId } from '../../../components/rowTestId';
import { useListQuery } from '../../../components/usePagedQuery';
import type { HttpError } from '../../../lib/http';
import { useSession } from '../../../lib/useSession';
import { formatLocalTime } from '../../devices/model/format';
import { useAskAccess, useAuthzHolders, useAuthzRequests, useDecide } from '../api';
import { DecideModal, type TDeciding } from '../components/DecideModal';
import { StateTag, TargetCell } from '../components/RequestParts';

/** The authorisation history (spec §2 `/self-auth/history`), linked from this page's title. */
const HISTORY_PATH = '/self-auth/history';

type TAskValues = { device: string; target: TAuthzTarget; proof?: string; message?: string };

/** The user's request form; `?device=&proof=` (a printed QR code's link) fills it in. */
function AskCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const ask = useAskAccess();
  const [form] = Form.useForm<TAskValues>();
  const target = Form.useWatch('target', form);
  const [needsProof, setNeedsProof] = useState(params.has('proof'));
  // The proof field may appear with the very answer that asks for it: its message is state, not a form field error.
  const [proofError, setProofError] = useState<string | null>(null);
  const submit = (v: TAskValues) => {
    const body: TAuthzRequestInput = { device: v.device, target: v.target, message: v.message ?? '' };
    if (v.proof?.trim()) body.proof = v.proof.trim();
    setProofError(null);
    ask.mutate(body, {
      onSuccess: () => {
        void message.success(t('authz.asked'));
        form.resetFields();
        setNeedsProof(false);
      },
      onError: (e) => {
        const err = e as HttpError;
        if (err.code === ErrorCode.AuthzProofRequired || err.code === ErrorCode.AuthzProofInvalid) {
          setNeedsProof(true);
          setProofError(t(`authz.errors.${err.code}`));
        } else if (err.status === 404) form.setFields([{ name: 'device', errors: [t('authz.errors.notFound')] }]);
        else if (err.code === ErrorCode.AuthzAlreadyGranted || err.code === ErrorCode.AuthzState) {
          form.setFields([{ name: 'device', errors: [t(`authz.errors.${err.code}`)] }]);
        } else form.setFields([{ name: 'device', errors: [err.message] }]);
      },
    });
  };
  return (
    <Card title={t('authz.askTitle')}>
      <Form<TAskValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 520 }}
        initialValues={{ device: params.get('device') ?? '', target: 'device', proof: params.get('proof') ?? '' }}
        onFinish={submit}
        data-testid="authz-ask-form"
      >
        <Form.Item
          name="device"
          label={target === 'machine' ? t('authz.machineField') : t('authz.deviceField')}
          extra={target === 'machine' ? t('authz.machineHelp') : t('authz.deviceHelp')}
          rules={[{ required: true, whitespace: true, message: t('authz.deviceRequired') }, { max: AUTHZ_DEVICE_TEXT_MAX }]}
        >
          <Input autoFocus data-testid="authz-device" />
        </Form.Item>
        <Form.Item name="target" label={t('authz.target')}>
          <Radio.Group data-testid="authz-target">
            <Radio value="device">{t('authz.targets.device')}</Radio>
            <Radio value="project" data-testid="authz-target-project">
              {t('authz.targets.project')}
            </Radio>
            <Radio value="machine" data-testid="authz-target-machine">
              {t('authz.targets.machine')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {needsProof && (
          <Form.Item
            name="proof"
            label={t('authz.proof')}
            extra={t('authz.proofHelp')}
            rules={[{ max: AUTHZ_PROOF_MAX }]}
            validateStatus={proofError ? 'error' : undefined}
            help={proofError ?? undefined}
          >
            <Input data-testid="authz-proof" onChange={() => setProofError(null)} />
          </Form.Item>
        )}
        <Form.Item name="message" label={t('authz.message')} rules={[{ max: AUTHZ_TEXT_MAX }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} showCount maxLength={AUTHZ_TEXT_MAX} data-testid="authz-message" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={ask.isPending} data-testid="authz-ask">
          {t('authz.ask')}
        </Button>
      </Form>
    </Card>
  );
}

/** A user's own requests, newest first, with cancel for pending ones. */
function MyRequestsCard() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { query, paginate } = useListQuery();
  const requests = useAuthzRequests({ ...query, scope: 'mine' });
  const decide = useDecide();
  return (
    <Card title={t('authz.mineTitle')}>
      <Table<TAuthzRequest>
        rowKey="id"
        size="middle"
        loading={requests.isFetching && !requests.data}
        dataSource={requests.data?.data ?? []}
        onRow={rowTestId('authz-request')}
        locale={{ emptyText: <Empty description={t('authz.mineEmpty')} /> }}
        pagination={{ current: query.page, pageSize: query.limit, total: requests.data?.total_items ?? 0, onChange: paginate }}
        columns={[
          { title: t('authz.asked_at'), dataIndex: 'created_at', render: (ms: number) => formatLocalTime(ms) },
          { title: t('authz.what'), key: 'what', render: (_, r) => <TargetCell request={r} linkDevice={r.status === 'allowed'} /> },
          { title: t('authz.state'), key: 'state', render: (_, r) => <StateTag request={r} /> },
          { title: t('authz.note'), dataIndex: 'note', render: (note: string) => note || '—' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, r) =>
              r.status === 'pending' && (
                <Button
                  size="small"
                  icon={<StopOutlined />}
                  data-testid={`authz-cancel-${r.id}`}
                  onClick={() =>
                    modal.confirm({
                      title: t('authz.cancelTitle'),
                      okText: t('authz.decisions.cancel'),
                      okButtonProps: { danger: true, 'data-testid': 'authz-cancel-confirm' },
                      cancelText: t('authz.keep'),
                      onOk: () =>
                        decide.mutateAsync({ id: r.id, decision: 'cancel' }).then(
                          () => void message.success(t('authz.done.cancel')),
                          (e: Error) => void message.error(e.message),
                        ),
                    })
                  }
                >
                  {t('authz.decisions.cancel')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}

/** An owner's queue: the pending requests it may answer (a vendor: the tenant's; a manager: what it manages). */
function PendingCard({ onDecide }: { onDecide: (d: TDeciding) => void }) {
  const { t } = useTranslation();
  const { query, search, paginate } = useListQuery();
  const requests = useAuthzRequests({ ...query, status: 'pending', scope: 'managed' });
  return (
    <Card title={t('authz.pendingTitle', { count: requests.data?.total_items ?? 0 })}>
      <Input.Search allowClear placeholder={t('authz.search')} onSearch={search} style={{ maxWidth: 320, marginBottom: 16 }} />
      <Table<TAuthzRequest>
        rowKey="id"
        size="middle"
        loading={requests.isFetching && !requests.data}
        dataSource={requests.data?.data ?? []}
        onRow={rowTestId('authz-pending')}
        locale={{ emptyText: <Empty description={t('authz.pendingEmpty')} /> }}
        pagination={{ current: query.page, pageSize: query.limit, total: requests.data?.total_items ?? 0, onChange: paginate }}
        columns={[
          { title: t('authz.asked_at'), dataIndex: 'created_at', render: (ms: number) => formatLocalTime(ms) },
          { title: t('authz.requester'), key: 'requester', render: (_, r) => r.requester.email },
          { title: t('authz.what'), key: 'what', render: (_, r) => <TargetCell request={r} linkDevice /> },
          { title: t('authz.method'), dataIndex: 'method', render: (m: string) => t(`authz.methods.${m}`) },
          { title: t('authz.message'), dataIndex: 'message', render: (m: string) => m || '—' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, r) => (
              <Space>
                <Button
                  size="small"
                  type="primary"
                  icon={<CheckOutlined />}
                  onClick={() => onDecide({ request: r, decision: 'allow' })}
                  data-testid={`authz-allow-${r.id}`}
                >
                  {t('authz.decisions.allow')}
                </Button>
                <Button
                  size="small"
                  danger
                  icon={<CloseOutlined />}
                  onClick={() => onDecide({ request: r, decision: 'deny' })}
                  data-testid={`authz-deny-${r.id}`}
                >
                  {t('authz.decisions.deny')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** Who holds access through allowed requests the caller may revoke (a vendor: the tenant's; a manager: what it manages). */
function HoldersCard({ onDecide }: { onDecide: (d: TDeciding) => void }) {
  const { t } = useTranslation();
  const { query, search, paginate } = useListQuery();
  const holders = useAuthzHolders(query, true);
  return (
    <Card title={t('authz.holdersTitle')}>
      <Input.Search allowClear placeholder={t('authz.searchEmail')} onSearch={search} style={{ maxWidth: 320, marginBottom: 16 }} />
      <Table<TAuthzHolder & { id: number }>
        rowKey="id"
        size="middle"
        loading={holders.isFetching && !holders.data}
        dataSource={(holders.data?.data ?? []).map((h) => ({ ...h, id: h.request_id }))}
        onRow={rowTestId('authz-holder')}
        locale={{ emptyText: <Empty description={t('authz.holdersEmpty')} /> }}
        pagination={{ current: query.page, pageSize: query.limit, total: holders.data?.total_items ?? 0, onChange: paginate }}
        columns={[
          { title: t('authz.requester'), dataIndex: 'email' },
          { title: t('authz.what'), key: 'what', render: (_, h) => <TargetCell request={h} linkDevice /> },
          { title: t('authz.since'), dataIndex: 'since', render: (ms: number) => formatLocalTime(ms) },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, h) => (
              <Button
                size="small"
                danger
                icon={<StopOutlined />}
                onClick={() =>
                  onDecide({
                    request: {
                      id: h.request_id,
                      requester: { account_id: h.account_id, email: h.email },
                      device: h.device,
                      project: h.project,
                      machine: h.machine,
                      target: h.target,
                    },
                    decision: 'revoke',
                  })
                }
                data-testid={`authz-revoke-${h.request_id}`}
              >
                {t('authz.decisions.revoke')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** The page. */
export default function DeviceAuthPage() {
  const { t } = useTranslation();
  const session = useSession();
  const owner = session.level !== 'user';
  const seesHistory = guardRoute(HISTORY_PATH, session).kind === 'allow';
  const [deciding, setDeciding] = useState<TDeciding>(null);
  // A user sees the manager's cards once some request falls under a role of its with manage_access.
  const managed = useAuthzRequests({ page: 1, limit: 1, scope: 'managed' });
  const manages = !owner && (managed.data?.total_items ?? 0) > 0;
  return (
    <Flex vertical gap={16} data-testid="authz-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('authz.title')}
        </Typography.Title>
        {seesHistory && (
          <Link to={HISTORY_PATH} data-testid="authz-history-link">
            <HistoryOutlined /> {t('authz.historyTitle')}
          </Link>
        )}
      </Flex>
      {owner ? (
        <>
          <Alert type="info" showIcon message={t('authz.ownerHelp')} />
          <PendingCard onDecide={setDeciding} />
          <HoldersCard onDecide={setDeciding} />
          <DecideModal deciding={deciding} onClose={() => setDeciding(null)} />
        </>
      ) : (
        <>
          <AskCard />
          <MyRequestsCard />
          {manages && (
            <>
              <Typography.Title level={5} style={{ margin: 0 }} data-testid="authz-managed-title">
                {t('authz.managedTitle')}
              </Typography.Title>
              <PendingCard onDecide={setDeciding} />
              <HoldersCard onDecide={setDeciding} />
              <DecideModal deciding={deciding} onClose={() => setDeciding(null)} />
            </>
          )}
        </>
      )}
    </Flex>
  );
}

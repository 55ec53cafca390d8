/**
 * /platform_rule/list (spec §2, §4): the tenant's platform rules — status tag, trigger, version, last run, runs per
 * minute over the last 15 minutes, and the actions apply, start, stop, copy, delete (stop and delete ask first; the
 * server's refusal is shown). A new rule gets a name here and opens in the flow editor. Below, the platform-rule
 * alerts (PlatformAlertsCard).
 */
import { CopyOutlined, DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { TPlatformRuleStatus } from '@tessera/contracts';
import { Alert, App, Button, Flex, Form, Input, Modal, Space, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '../../../components/ListPage';
import { useSession } from '../../../lib/useSession';
import { useListQuery } from '../../../components/usePagedQuery';
import { useCreatePlatformRule, useDeletePlatformRule, usePlatformRules, useRuleAction, useRuleMetrics } from '../api';
import { Sparkline } from '../components/Sparkline';
import { PlatformAlertsCard } from '../components/PlatformAlertsCard';
import { StatusTag } from '../components/StatusTag';

type TRow = NonNullable<ReturnType<typeof usePlatformRules>['data']>['data'][number];

const RUNS: readonly TPlatformRuleStatus[] = ['running', 'queuing'];

function RowActions({ rule }: { rule: TRow }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const action = useRuleAction(rule.id);
  const remove = useDeletePlatformRule();
  const fail = (e: Error) => {
    modal.error({ title: t('platformRules.actionFailed'), content: <span data-testid="rule-action-error">{e.message}</span> });
  };
  const run = (a: 'start' | 'stop' | 'copy') =>
    action.mutate(a, { onSuccess: () => void message.success(t(`platformRules.done.${a}`)), onError: fail });
  const running = RUNS.includes(rule.status);
  return (
    <Space>
      <Tooltip title={t('platformRules.edit')}>
        <Button
          size="small"
          icon={<EditOutlined />}
          aria-label={t('platformRules.edit')}
          onClick={() => navigate(`/platform_rule/detail/${rule.id}`)}
          data-testid={`rule-edit-${rule.id}`}
        />
      </Tooltip>
      {running ? (
        <Tooltip title={t('platformRules.stop')}>
          <Button
            size="small"
            icon={<PauseCircleOutlined />}
            aria-label={t('platformRules.stop')}
            data-testid={`rule-stop-${rule.id}`}
            onClick={() =>
              modal.confirm({
                title: t('platformRules.stopTitle', { name: rule.name }),
                content: t('platformRules.stopContent'),
                okButtonProps: { 'data-testid': 'rule-stop-confirm' },
                onOk: () => run('stop'),
              })
            }
          />
        </Tooltip>
      ) : (
        <Tooltip title={t('platformRules.start')}>
          <Button
            size="small"
            icon={<PlayCircleOutlined />}
            aria-label={t('platformRules.start')}
            disabled={rule.version === 0}
            onClick={() => run('start')}
            data-testid={`rule-start-${rule.id}`}
          />
        </Tooltip>
      )}
      <Tooltip title={t('platformRules.copy')}>
        <Button
          size="small"
          icon={<CopyOutlined />}
          aria-label={t('platformRules.copy')}
          onClick={() => run('copy')}
          data-testid={`rule-copy-${rule.id}`}
        />
      </Tooltip>
      <Tooltip title={running ? t('platformRules.deleteRunning') : t('common.delete')}>
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('common.delete')}
          disabled={running || rule.status === 'stopping'}
          data-testid={`rule-delete-${rule.id}`}
          onClick={() =>
            modal.confirm({
              title: t('platformRules.deleteTitle', { name: rule.name }),
              content: t('platformRules.deleteContent'),
              okText: t('common.delete'),
              okButtonProps: { danger: true, 'data-testid': 'rule-delete-confirm' },
              onOk: () => remove.mutateAsync(rule.id).then(() => void message.success(t('platformRules.done.delete')), fail),
            })
          }
        />
      </Tooltip>
    </Space>
  );
}

/** The platform-rule list. */
export default function PlatformRuleListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useListQuery();
  const rules = usePlatformRules(list.query);
  // Users granted the section read the list (no actions, no run metrics); editing stays with vendors.
  const readOnly = useSession().level === 'user';
  const metrics = useRuleMetrics(!readOnly);
  const create = useCreatePlatformRule();
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const perMinute = new Map((metrics.data?.rules ?? []).map((m) => [m.rule_id, m]));

  const submit = ({ name }: { name: string }) =>
    create.mutate(
      { name },
      {
        onSuccess: (rule) => {
          setCreating(false);
          navigate(`/platform_rule/detail/${rule.id}`);
        },
        onError: (e) => form.setFields([{ name: 'name', errors: [e.message] }]),
      },
    );
  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="rule-create">
      {t('platformRules.create')}
    </Button>
  );

  return (
    <Flex vertical gap={16}>
      <ListPage<TRow>
        title={t('platformRules.title')}
        extra={!readOnly && createButton}
        notice={
          readOnly && (
            <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('platformRules.readOnly')} data-testid="rule-read-only" />
          )
        }
        list={list}
        result={rules}
        loading={rules.isFetching && !rules.data}
        searchPlaceholder={t('platformRules.search')}
        searchTestId="rule-search"
        rowPrefix="platform-rule"
        empty={{ text: t('platformRules.empty'), noMatch: t('platformRules.noMatch'), action: !readOnly && createButton }}
        columns={[
          {
            title: t('common.name'),
            dataIndex: 'name',
            render: (name: string, r) => (readOnly ? name : <Link to={`/platform_rule/detail/${r.id}`}>{name}</Link>),
          },
          {
            title: t('platformRules.status'),
            dataIndex: 'status',
            render: (s: TPlatformRuleStatus, r) => <StatusTag status={s} testId={`rule-status-${r.id}`} />,
          },
          {
            title: t('platformRules.triggerCol'),
            dataIndex: 'trigger_kind',
            render: (k: string | null) => (k ? t(`platformRules.trigger.${k}`) : '—'),
          },
          {
            title: t('platformRules.version'),
            dataIndex: 'version',
            render: (v: number, r) =>
              v === 0 ? (
                '—'
              ) : (
                <Space size={4}>
                  v{v}
                  {r.dirty && <Tag>{t('platformRules.dirty')}</Tag>}
                </Space>
              ),
          },
          {
            title: t('platformRules.lastRun'),
            dataIndex: 'last_run_at',
            render: (ms: number | null) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '—'),
          },
          ...(readOnly
            ? []
            : [
                {
                  title: t('platformRules.runsPerMinute'),
                  key: 'spark',
                  width: 140,
                  render: (_: unknown, r: TRow) => {
                    const m = perMinute.get(r.id);
                    return m ? (
                      <Sparkline values={m.per_minute} label={t('platformRules.runsErrors', { runs: m.runs, errors: m.errors })} />
                    ) : (
                      '—'
                    );
                  },
                },
                { title: t('common.actions'), key: 'actions', width: 170, render: (_: unknown, r: TRow) => <RowActions rule={r} /> },
              ]),
        ]}
      >
        <Modal
          open={creating}
          title={t('platformRules.create')}
          onCancel={() => setCreating(false)}
          okButtonProps={{ loading: create.isPending, 'data-testid': 'rule-create-submit' } as never}
          onOk={() => form.submit()}
          destroyOnHidden
        >
          <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
            <Form.Item
              name="name"
              label={t('common.name')}
              rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 64 }]}
            >
              <Input autoFocus data-testid="rule-name" onPressEnter={() => form.submit()} />
            </Form.Item>
          </Form>
        </Modal>
      </ListPage>
      <PlatformAlertsCard />
    </Flex>
  );
}

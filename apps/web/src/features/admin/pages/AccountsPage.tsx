/**
 * /admin/accounts (spec §6 "An admin can list accounts and switch account token", §7 `GET admin/account`,
 * `POST admin/account/switch`; docs/decisions/console.md "Admin account switch"): every account of every tenant —
 * email, name, tenant, level, locked — searched and paged; "act as" switches to the account after a confirmation,
 * keeping the admin's session for the way back (the layout's banner). Only admins: the route guard sends others away
 * before the page loads (`LEVEL_ROUTES` in contracts), and sends the admin on as soon as it acts as someone else, so
 * the accounts list is never asked for with the other account's token.
 */
import { SwapOutlined } from '@ant-design/icons';
import type { TAccountSummary } from '@tessera/contracts';
import { App, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '../../../components/ListPage';
import { useListQuery } from '../../../components/usePagedQuery';
import { queryClient } from '../../../lib/query';
import { actAs, getSession } from '../../../lib/session';
import { useSession } from '../../../lib/useSession';
import { formatLocalTime } from '../../devices/model/format';
import { useAccounts, useSwitchAccount } from '../api';

/** The page. */
export default function AccountsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const session = useSession();
  const list = useListQuery();
  const accounts = useAccounts(list.query);
  const switcher = useSwitchAccount();

  const actAsAccount = (a: TAccountSummary) =>
    modal.confirm({
      title: t('admin.switchTitle', { email: a.email }),
      content: t('admin.switchContent'),
      okText: t('admin.switch'),
      okButtonProps: { 'data-testid': 'admin-switch-confirm' },
      onOk: () =>
        switcher.mutateAsync(a.id).then(
          (pair) => {
            // Leave the page first: the accounts list must not refetch under the new account's token.
            navigate('/', { replace: true });
            actAs(pair);
            queryClient.clear();
            void message.success(t('admin.switched', { email: getSession().email }));
          },
          (e: Error) => void message.error(e.message),
        ),
    });

  return (
    <ListPage<TAccountSummary>
      title={t('admin.accountsTitle')}
      testId="admin-accounts"
      list={list}
      result={accounts}
      loading={accounts.isFetching && !accounts.data}
      searchPlaceholder={t('admin.search')}
      searchTestId="admin-search"
      rowPrefix="admin-account"
      table={{ size: 'middle' }}
      empty={{ text: t('admin.empty'), noMatch: t('admin.noMatch') }}
      columns={[
        { title: t('common.email'), dataIndex: 'email' },
        { title: t('admin.name'), dataIndex: 'name', render: (n: string) => n || '—' },
        { title: t('admin.tenant'), dataIndex: 'tenant_name' },
        { title: t('admin.level'), dataIndex: 'level', render: (l: string) => <Tag>{t(`admin.levels.${l}`)}</Tag> },
        {
          title: t('admin.state'),
          dataIndex: 'locked',
          render: (locked: boolean) =>
            locked ? <Tag color="error">{t('admin.locked')}</Tag> : <Tag color="success">{t('admin.active')}</Tag>,
        },
        { title: t('admin.created'), dataIndex: 'created_at', render: (ms: number) => formatLocalTime(ms) },
        {
          title: t('common.actions'),
          key: 'actions',
          render: (_, a) =>
            a.email !== session.email && (
              <Button size="small" icon={<SwapOutlined />} onClick={() => actAsAccount(a)} data-testid={`admin-switch-${a.id}`}>
                {t('admin.switch')}
              </Button>
            ),
        },
      ]}
    />
  );
}

/**
 * /machine/equipment (vendors and users; docs/decisions/machines.md): the machines the viewer sees — all of the
 * organisation's for a vendor, those shared with a user — searched (name or serial number), filtered by configure
 * (`?configure=` keeps the filter in the link), paged. Each opens its machine page; vendors create, edit and delete
 * (with a confirmation) here.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_PAGE_LIMIT, type TMachineInstance } from '@tessera/contracts';
import { App, Button, Select, Space, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ListPage } from '../../../components/ListPage';
import { useListQuery } from '../../../components/usePagedQuery';
import type { HttpError } from '../../../lib/http';
import { useSession } from '../../../lib/useSession';
import { useDeleteMachineInstance, useMachineConfigures, useMachineInstances } from '../api';
import { InstanceDrawer } from '../components/InstanceDrawer';
import { useMachineClassText } from '../components/MachineClassSelect';

/** Configure filter options: a vendor's configures; for a user (no configure API), the configures of its machines. */
function useConfigureOptions(isVendor: boolean) {
  const configures = useMachineConfigures({ page: 1, limit: MAX_PAGE_LIMIT }, isVendor);
  const held = useMachineInstances({ page: 1, limit: MAX_PAGE_LIMIT }, !isVendor);
  if (isVendor) return (configures.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const byId = new Map((held.data?.data ?? []).map((m) => [m.configure_id, m.configure_name]));
  return [...byId].map(([value, label]) => ({ value, label }));
}

/** The machine list. */
export default function EquipmentListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const isVendor = useSession().level !== 'user';
  const [params, setParams] = useSearchParams();
  const configureId = Number(params.get('configure')) || undefined;
  const list = useListQuery();
  const machines = useMachineInstances({ ...list.query, configure_id: configureId });
  const options = useConfigureOptions(isVendor);
  const remove = useDeleteMachineInstance();
  const classText = useMachineClassText();
  const [editing, setEditing] = useState<TMachineInstance | null | undefined>(undefined);
  // A new machine opens its page once the drawer (and its unsaved-changes guard) has gone.
  const [created, setCreated] = useState<number | null>(null);
  useEffect(() => {
    if (created !== null && editing === undefined) navigate(`/machine/equipment/${created}`);
  }, [created, editing, navigate]);

  const filterBy = (id: number | undefined) => {
    list.paginate(1, list.query.limit);
    setParams(id ? { configure: String(id) } : {}, { replace: true });
  };
  const confirmDelete = (m: TMachineInstance) =>
    modal.confirm({
      title: t('machines.instance.deleteTitle', { name: m.name }),
      content: t('machines.instance.deleteContent'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'instance-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(m.id).then(
          () => void message.success(t('machines.instance.deleted')),
          (e: HttpError) => {
            modal.error({ title: t('machines.deleteFailed'), content: e.message });
          },
        ),
    });
  const create = isVendor && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="instance-create">
      {t('machines.instance.create')}
    </Button>
  );

  return (
    <ListPage<TMachineInstance>
      title={t('machines.instance.title')}
      extra={create || undefined}
      list={list}
      result={machines}
      searchPlaceholder={t('machines.instance.searchPlaceholder')}
      searchTestId="instance-search"
      filters={
        <Select<number>
          allowClear
          showSearch
          optionFilterProp="label"
          value={configureId}
          onChange={filterBy}
          options={options}
          placeholder={t('machines.instance.allConfigures')}
          style={{ minWidth: 220 }}
          aria-label={t('machines.instance.configure')}
          data-testid="instance-configure-filter"
        />
      }
      rowPrefix="instance"
      empty={{
        text: isVendor ? t('machines.instance.empty') : t('machines.instance.emptyUser'),
        noMatch: t('machines.instance.noMatch'),
        filtered: Boolean(configureId),
        action: create,
        testId: 'instances-empty',
      }}
      columns={[
        {
          title: t('common.name'),
          dataIndex: 'name',
          render: (name: string, m) => (
            <Link to={`/machine/equipment/${m.id}`} data-testid={`instance-open-${m.id}`}>
              {name}
            </Link>
          ),
        },
        { title: t('machines.instance.configure'), dataIndex: 'configure_name' },
        { title: t('machines.instance.serial'), dataIndex: 'serial_number', render: (s: string) => s || '—' },
        { title: t('machines.instance.location'), dataIndex: 'location', render: (s: string) => s || '—' },
        {
          title: t('machines.instance.class'),
          dataIndex: 'machine_class',
          render: (c: TMachineInstance['machine_class']) => (
            <Tooltip title={classText(c).hint}>
              <span>{classText(c).label}</span>
            </Tooltip>
          ),
        },
        {
          title: t('machines.instance.bound'),
          key: 'bound',
          render: (_, m) =>
            t('machines.instance.boundCount', { bound: m.components.filter((c) => c.device).length, total: m.components.length }),
        },
        ...(isVendor
          ? [
              {
                title: t('common.actions'),
                key: 'actions',
                width: 110,
                render: (_: unknown, m: TMachineInstance) => (
                  <Space>
                    <Button
                      size="small"
                      icon={<EditOutlined />}
                      aria-label={t('machines.instance.edit')}
                      onClick={() => setEditing(m)}
                      data-testid={`instance-edit-${m.id}`}
                    />
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete')}
                      onClick={() => confirmDelete(m)}
                      data-testid={`instance-delete-${m.id}`}
                    />
                  </Space>
                ),
              },
            ]
          : []),
      ]}
    >
      <InstanceDrawer
        machine={editing}
        configureId={configureId}
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => editing === null && setCreated(saved.id)}
      />
    </ListPage>
  );
}

/**
 * /ai-model/list (feature code 13:1; docs/decisions/ai.md): the organisation's AI models — name, framework, hardware
 * module, newest revision, how many — searched, filtered by framework and paged; create and edit in a drawer; delete
 * with a confirmation (refused while a revision is deployed). A model's name opens its revisions.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { AI_MODEL_FRAMEWORKS, AiModelErrorCode, type TAiModel, type TAiModelFramework } from '@tessera/contracts';
import { App, Button, Select, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListPage } from '../../../components/ListPage';
import { useListQuery } from '../../../components/usePagedQuery';
import type { HttpError } from '../../../lib/http';
import { formatLocalTime } from '../../devices/model/format';
import { useAiModels, useDeleteAiModel } from '../api';
import { AiModelDrawer } from '../components/AiModelDrawer';

/** The model list. */
export default function AiModelListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const list = useListQuery();
  const [framework, setFramework] = useState<TAiModelFramework>();
  const models = useAiModels({ ...list.query, framework });
  const remove = useDeleteAiModel();
  const [editing, setEditing] = useState<TAiModel | null | undefined>(undefined);
  const [created, setCreated] = useState<number>();
  // A new model opens its page once the drawer's form has rendered as saved (its unsaved-changes prompt let go).
  useEffect(() => {
    if (created !== undefined) navigate(`/ai-model/detail/${created}`);
  }, [created, navigate]);

  const confirmDelete = (m: TAiModel) =>
    modal.confirm({
      title: t('aiModels.deleteTitle', { name: m.name }),
      content: t('aiModels.deleteContent', { count: m.revision_count }),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'ai-model-delete-confirm' },
      onOk: () =>
        remove.mutateAsync(m.id).then(
          () => void message.success(t('aiModels.deleted')),
          (e: HttpError) => {
            modal.error({
              title: e.code === AiModelErrorCode.Deployed ? t('aiModels.deployedTitle') : t('aiModels.deleteFailed'),
              content: e.message,
            });
          },
        ),
    });
  const create = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="ai-model-create">
      {t('aiModels.create')}
    </Button>
  );

  return (
    <ListPage<TAiModel>
      title={t('aiModels.title')}
      extra={create}
      list={list}
      result={models}
      searchPlaceholder={t('aiModels.searchPlaceholder')}
      searchTestId="ai-model-search"
      filters={
        <Select<TAiModelFramework>
          allowClear
          placeholder={t('aiModels.allFrameworks')}
          aria-label={t('aiModels.framework')}
          value={framework}
          onChange={(f) => {
            setFramework(f);
            list.paginate(1, list.query.limit);
          }}
          options={AI_MODEL_FRAMEWORKS.map((f) => ({ value: f, label: t(`aiModels.frameworks.${f}`) }))}
          style={{ width: 200 }}
          data-testid="ai-model-framework-filter"
        />
      }
      rowPrefix="ai-model"
      empty={{
        text: t('aiModels.empty'),
        noMatch: t('aiModels.noMatch'),
        filtered: Boolean(framework),
        action: create,
        testId: 'ai-models-empty',
      }}
      columns={[
        {
          title: t('common.name'),
          dataIndex: 'name',
          render: (name: string, m) => (
            <Link to={`/ai-model/detail/${m.id}`} data-testid={`ai-model-open-${m.id}`}>
              {name}
            </Link>
          ),
        },
        {
          title: t('aiModels.framework'),
          dataIndex: 'framework',
          render: (f: TAiModelFramework) => <Tag>{t(`aiModels.frameworks.${f}`)}</Tag>,
        },
        { title: t('aiModels.module'), key: 'module', render: (_, m) => `${m.module_name} (${m.module_model_number})` },
        {
          title: t('aiModels.latestRevision'),
          dataIndex: 'latest_revision',
          render: (n: number | null) => (n === null ? t('aiModels.noRevision') : t('aiModels.revisions.number', { revision: n })),
        },
        { title: t('aiModels.revisionCount'), dataIndex: 'revision_count', width: 110 },
        { title: t('aiModels.updatedAt'), dataIndex: 'updated_at', render: (ts: number) => formatLocalTime(ts) },
        {
          title: t('common.actions'),
          key: 'actions',
          width: 110,
          render: (_, m) => (
            <Space>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('aiModels.edit')}
                onClick={() => setEditing(m)}
                data-testid={`ai-model-edit-${m.id}`}
              />
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                onClick={() => confirmDelete(m)}
                data-testid={`ai-model-delete-${m.id}`}
              />
            </Space>
          ),
        },
      ]}
    >
      <AiModelDrawer model={editing} onClose={() => setEditing(undefined)} onSaved={(m) => editing === null && setCreated(m.id)} />
    </ListPage>
  );
}

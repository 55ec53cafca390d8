/**
 * Create or edit an AI model (docs/decisions/ai.md): name, framework, hardware module (the catalogue, searchable),
 * description, input and output. The contract's rules show on their fields; the server's refusals land on the field
 * they name (name taken, module not in the catalogue). Closing with unsaved edits asks first.
 */
import { AI_MODEL_FRAMEWORKS, ErrorCode, type TAiModel, ZAiModelInput } from '@tessera/contracts';
import { App, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions, FormDrawer } from '../../../components/FormDrawer';
import type { HttpError } from '../../../lib/http';
import { confirmDiscard, useUnsavedChangesPrompt } from '../../../lib/useUnsavedChangesPrompt';
import { zodRule } from '../../../lib/zodRules';
import { useTangramProducts } from '../../projects/api';
import { useSaveAiModel } from '../api';
import { aiModelBodyOf, aiModelFormOf, type TAiModelForm } from '../model/aiModelForm';

interface TProps {
  /** undefined = closed, null = a new model, a model = edit it. */
  model: TAiModel | null | undefined;
  onClose: () => void;
  /** Called with the saved model (navigation it starts must wait for the next render: see AiModelListPage). */
  onSaved?: (model: TAiModel) => void;
}

/** The form inside the drawer; mounted per opened model so its initial values are that model's. */
function AiModelForm({ model, onClose, onSaved }: { model: TAiModel | null; onClose: () => void; onSaved?: (m: TAiModel) => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<TAiModelForm>();
  const save = useSaveAiModel();
  const [moduleQuery, setModuleQuery] = useState<string>();
  const modules = useTangramProducts(moduleQuery);
  const initial = aiModelFormOf(model);
  const values = Form.useWatch([], form) as TAiModelForm | undefined;
  const [saved, setSaved] = useState(false);
  const dirty = !saved && !!values && JSON.stringify(aiModelBodyOf({ ...initial, ...values })) !== JSON.stringify(aiModelBodyOf(initial));
  useUnsavedChangesPrompt(dirty);

  const close = () => (dirty ? confirmDiscard(modal, t, onClose) : onClose());
  const rule = (field: keyof TAiModelForm) => [zodRule(ZAiModelInput, field, t)];
  const moduleOptions = (modules.data?.data ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.model_number})` }));
  // The edited model's module stays nameable while the search shows other modules.
  if (model && !moduleOptions.some((o) => o.value === model.tangram_product_id)) {
    moduleOptions.unshift({ value: model.tangram_product_id, label: `${model.module_name} (${model.module_model_number})` });
  }
  const refused = (err: HttpError) => {
    if (err.status === 409) return form.setFields([{ name: 'name', errors: [t('aiModels.nameTaken')] }]);
    if (err.status === 404 && err.code === ErrorCode.NotFound && err.details) {
      return form.setFields([{ name: 'tangram_product_id', errors: [t('aiModels.moduleNotFound')] }]);
    }
    modal.error({ title: t('errors.saveFailed'), content: err.message });
  };
  const submit = (v: TAiModelForm) =>
    save.mutate(
      { id: model?.id, body: aiModelBodyOf(v) },
      {
        onSuccess: (result) => {
          // Saved edits are no longer unsaved: a page the caller opens next is not blocked by the prompt.
          setSaved(true);
          void message.success(t('common.saved'));
          onClose();
          onSaved?.(result);
        },
        onError: (e) => refused(e as HttpError),
      },
    );

  return (
    <Form<TAiModelForm> form={form} layout="vertical" initialValues={initial} onFinish={submit} scrollToFirstError>
      <Form.Item name="name" label={t('common.name')} rules={rule('name')}>
        <Input data-testid="ai-model-name" />
      </Form.Item>
      <Form.Item name="framework" label={t('aiModels.framework')} rules={rule('framework')}>
        <Select
          data-testid="ai-model-framework"
          options={AI_MODEL_FRAMEWORKS.map((f) => ({ value: f, label: t(`aiModels.frameworks.${f}`) }))}
        />
      </Form.Item>
      <Form.Item name="tangram_product_id" label={t('aiModels.module')} rules={rule('tangram_product_id')}>
        <Select
          data-testid="ai-model-module"
          placeholder={t('aiModels.modulePlaceholder')}
          loading={modules.isFetching}
          showSearch={{ filterOption: false, onSearch: (q) => setModuleQuery(q || undefined) }}
          options={moduleOptions}
        />
      </Form.Item>
      <Form.Item name="description" label={t('common.description')} rules={rule('description')}>
        <Input.TextArea rows={2} data-testid="ai-model-description" />
      </Form.Item>
      <Form.Item name="input_description" label={t('aiModels.inputDescription')} rules={rule('input_description')}>
        <Input.TextArea rows={3} placeholder={t('aiModels.inputPlaceholder')} data-testid="ai-model-input" />
      </Form.Item>
      <Form.Item name="output_description" label={t('aiModels.outputDescription')} rules={rule('output_description')}>
        <Input.TextArea rows={3} placeholder={t('aiModels.outputPlaceholder')} data-testid="ai-model-output" />
      </Form.Item>
      <FormActions onCancel={close} saving={save.isPending} dirty={dirty} testIdPrefix="ai-model" />
    </Form>
  );
}

/** The drawer. */
export function AiModelDrawer({ model, onClose, onSaved }: TProps) {
  const { t } = useTranslation();
  return (
    <FormDrawer
      open={model !== undefined}
      onClose={onClose}
      title={t(model ? 'aiModels.editTitle' : 'aiModels.createTitle', { name: model?.name ?? '' })}
    >
      {model !== undefined && <AiModelForm key={model?.id ?? 'new'} model={model} onClose={onClose} onSaved={onSaved} />}
    </FormDrawer>
  );
}

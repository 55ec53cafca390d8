/**
 * The assistant's chat panel (spec §1 AI assistant, 13:25; docs/decisions/ai.md "Assistant: console"): a drawer
 * with the account's conversations (pick, start new, delete after a confirmation), the chosen conversation's
 * messages, the answer being written as it streams, and the question box. Errors (limits reached, endpoint down)
 * show translated.
 */
import { DeleteOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { ASSISTANT_MESSAGE_MAX, type TAssistantLanguage } from '@tessera/contracts';
import { Alert, Button, Drawer, Empty, Input, Popconfirm, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '../../../lib/session';
import { useConversation, useConversations, useCreateConversation, useDeleteConversation } from '../api';
import { assistantErrorKey } from '../errors';
import { useAssistantChat } from '../useAssistantChat';
import { ChatMessage } from './ChatMessage';

/** The panel; `open` shows it, `onClose` hides it. */
export default function AssistantDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<number | null>(null);
  const [question, setQuestion] = useState('');
  const list = useConversations(open);
  const detail = useConversation(selected);
  const create = useCreateConversation();
  const remove = useDeleteConversation();
  const language: TAssistantLanguage = getLanguage() === 'en' ? 'en' : 'zh-TW';
  const { pending, ask, reset } = useAssistantChat(language);
  const bottom = useRef<HTMLDivElement>(null);

  const messages = selected !== null ? (detail.data?.messages ?? []) : [];
  // The stored conversation may already hold the question being answered (it is stored before the answer starts).
  const last = messages.at(-1);
  const questionStored = last?.role === 'user' && last.content === pending?.question;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the end whenever a message arrives or the answer grows.
  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, pending?.text]);

  const pick = (id: number | null) => {
    reset();
    setSelected(id);
  };
  const send = async () => {
    const text = question.trim();
    if (!text || pending?.streaming) return;
    const id = selected ?? (await create.mutateAsync()).id;
    setSelected(id);
    setQuestion('');
    await ask(id, text);
  };
  const del = async () => {
    if (selected === null) return;
    await remove.mutateAsync(selected);
    pick(null);
  };

  const header = (
    <Space wrap>
      <Select
        style={{ width: 260 }}
        placeholder={t('assistant.conversations')}
        aria-label={t('assistant.conversations')}
        value={selected ?? undefined}
        onChange={(id: number) => pick(id)}
        options={(list.data?.data ?? []).map((c) => ({ value: c.id, label: c.title || t('assistant.untitled') }))}
        data-testid="assistant-conversations"
        loading={list.isLoading}
      />
      <Button icon={<PlusOutlined />} onClick={() => pick(null)} data-testid="assistant-new">
        {t('assistant.new')}
      </Button>
      {selected !== null && (
        <Popconfirm
          title={t('assistant.deleteConfirm')}
          onConfirm={del}
          okButtonProps={{ danger: true, 'data-testid': 'assistant-delete-confirm' }}
        >
          <Button danger icon={<DeleteOutlined />} data-testid="assistant-delete" aria-label={t('assistant.delete')} />
        </Popconfirm>
      )}
    </Space>
  );

  return (
    <Drawer open={open} onClose={onClose} title={t('assistant.title')} size="large" destroyOnHidden={false} data-testid="assistant-drawer">
      <Space direction="vertical" style={{ width: '100%', height: '100%' }} size="middle">
        {header}
        <div style={{ minHeight: 300 }} data-testid="assistant-messages">
          {detail.isLoading && <Spin />}
          {messages.length === 0 && !pending && (
            <Empty description={t('assistant.empty')} data-testid="assistant-empty">
              <Typography.Text type="secondary">{t('assistant.examples')}</Typography.Text>
            </Empty>
          )}
          {messages.map((m) => (
            <ChatMessage
              key={m.id}
              author={m.role}
              content={m.content}
              tools={m.tools}
              actions={m.actions}
              testId={`assistant-message-${m.id}`}
              onNavigate={onClose}
            />
          ))}
          {pending && (
            <>
              {!questionStored && <ChatMessage author="user" content={pending.question} testId="assistant-pending-question" />}
              {(pending.text || pending.tools.length > 0 || pending.streaming) && (
                <ChatMessage
                  author="assistant"
                  content={pending.text || (pending.streaming ? t('assistant.thinking') : '')}
                  tools={pending.tools}
                  actions={pending.actions}
                  testId="assistant-answer"
                  onNavigate={onClose}
                />
              )}
              {pending.error && <Alert type="error" showIcon title={t(assistantErrorKey(pending.error))} data-testid="assistant-error" />}
            </>
          )}
          <div ref={bottom} />
        </div>
        <Space.Compact style={{ width: '100%' }}>
          <Input.TextArea
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            onPressEnter={(e) => {
              if (!e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
            maxLength={ASSISTANT_MESSAGE_MAX}
            autoSize={{ minRows: 1, maxRows: 5 }}
            placeholder={t('assistant.placeholder')}
            data-testid="assistant-input"
          />
          <Button
            type="primary"
            icon={<SendOutlined />}
            onClick={() => void send()}
            loading={pending?.streaming}
            data-testid="assistant-send"
          >
            {t('assistant.send')}
          </Button>
        </Space.Compact>
      </Space>
    </Drawer>
  );
}

/**
 * One message of the chat: the person's question or the assistant's answer, with the tools the answer used (each
 * reference a link to the device, chart, alert history or rule it came from) and the commands it proposed.
 */
import { LinkOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import type { TAssistantAction, TAssistantToolUse } from '@tessera/contracts';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ActionButton } from './ActionButton';

/** What a message shows. */
export interface TChatMessageProps {
  author: 'user' | 'assistant';
  content: string;
  tools?: TAssistantToolUse[];
  actions?: TAssistantAction[];
  testId: string;
  /** Called when a reference link is followed (the panel closes). */
  onNavigate?: () => void;
}

/** A chat bubble. */
export function ChatMessage({ author, content, tools = [], actions = [], testId, onNavigate }: TChatMessageProps) {
  const { t } = useTranslation();
  const references = tools.flatMap((tool) => tool.references);
  const unique = references.filter((r, i) => references.findIndex((o) => o.path === r.path) === i);
  return (
    <div data-testid={testId} data-author={author} style={{ marginBottom: 16, textAlign: author === 'user' ? 'right' : 'left' }}>
      <Space align="start">
        {author === 'assistant' ? <RobotOutlined /> : null}
        <div
          style={{
            display: 'inline-block',
            textAlign: 'left',
            padding: '8px 12px',
            borderRadius: 8,
            background: author === 'user' ? '#e6f4ff' : '#f5f5f5',
            maxWidth: 400,
          }}
        >
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }} data-testid={`${testId}-text`}>
            {content}
          </Typography.Paragraph>
          {tools.length > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', marginTop: 6 }} data-testid={`${testId}-tools`}>
              {t('assistant.used', { tools: tools.map((tool) => tool.summary).join(', ') })}
            </Typography.Text>
          )}
          {unique.length > 0 && (
            <div style={{ marginTop: 6 }}>
              {unique.map((r) => (
                <Tag key={r.path} icon={<LinkOutlined />} style={{ marginBottom: 4 }}>
                  <Link to={r.path} onClick={onNavigate} data-testid="assistant-reference" data-kind={r.kind}>
                    {t(`assistant.reference.${r.kind}`, { label: r.label })}
                  </Link>
                </Tag>
              ))}
            </div>
          )}
          {actions.length > 0 && (
            <Space direction="vertical" style={{ marginTop: 6 }}>
              {actions.map((a, i) => (
                <ActionButton
                  key={`${a.tangram_id}-${a.command}-${a.params?.key ?? ''}-${a.params?.action ?? ''}`}
                  action={a}
                  testId={`${testId}-action-${i}`}
                />
              ))}
            </Space>
          )}
        </div>
        {author === 'user' ? <UserOutlined /> : null}
      </Space>
    </div>
  );
}

/**
 * The header's assistant button (spec §1: only when feature code 13:25 is granted): shown to accounts granted 13:25
 * when the platform has an AI endpoint configured (GET assistant/status); opens the chat panel, loaded on first use.
 */
import { RobotOutlined } from '@ant-design/icons';
import { ASSISTANT_FEATURE, hasFeature } from '@tessera/contracts';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/useSession';
import { useAssistantStatus } from '../api';

const AssistantDrawer = lazy(() => import('./AssistantDrawer'));

/** The button, or nothing for an account without 13:25 or a platform without an AI endpoint; `iconOnly` at phone width. */
export function AssistantButton({ iconOnly = false }: { iconOnly?: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const granted = Boolean(session.token) && hasFeature(session.fea, ASSISTANT_FEATURE);
  const status = useAssistantStatus(granted);
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  if (!granted || !status.data?.configured) return null;
  return (
    <>
      <Button
        type="text"
        icon={<RobotOutlined />}
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
        aria-label={t('assistant.open')}
        data-testid="assistant-open"
      >
        {!iconOnly && t('assistant.open')}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <AssistantDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

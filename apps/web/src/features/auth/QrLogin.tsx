/**
 * Login by QR code (spec §2 login, §4 "QR login … the code expires with a countdown", §8 UAE0009; docs/decisions/
 * auth.md "QR login"). {@link QrLoginPanel}: the waiting browser holds the server's event stream (EventSource), shows
 * the session's link as a QR code with a countdown, and enters with the tokens it receives; an expired code says so
 * and offers a new one. {@link QrConfirm}: the logged-in device that opened the code's link sees where the code was
 * shown and confirms, once.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { qrLoginPaths, type TQrSessionInfo, type TTokenResponse, ZQrSessionEvent } from '@tessera/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, QRCode, Result, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http';
import { getSession, saveTokens } from '../../lib/session';
import { authKeys } from './api';
import { authErrorKey } from './errorMessages';
import { useSecondsLeft } from './useSecondsLeft';

const QR_SIZE_PX = 200;

type TQrState = { kind: 'opening' } | { kind: 'waiting'; link: string; expiresAt: number } | { kind: 'expired' } | { kind: 'failed' };

/** The waiting side: the QR code, its countdown, and entry once a device confirms. `onTokens` runs after saving them. */
export function QrLoginPanel({ onTokens }: { onTokens: (res: TTokenResponse) => void }) {
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<TQrState>({ kind: 'opening' });
  const secondsLeft = useSecondsLeft(state.kind === 'waiting' ? state.expiresAt : null);
  const entered = useRef(onTokens);
  useEffect(() => {
    entered.current = onTokens;
  });

  // Each attempt (the first, and each "new code") opens its own stream and session.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what asks for a new stream
  useEffect(() => {
    setState({ kind: 'opening' });
    const source = new EventSource(qrLoginPaths.session);
    source.addEventListener('session', (e) => {
      const parsed = ZQrSessionEvent.safeParse(JSON.parse((e as MessageEvent<string>).data));
      if (parsed.success)
        setState({ kind: 'waiting', link: `${window.location.origin}${parsed.data.path}`, expiresAt: parsed.data.expires_at });
    });
    source.addEventListener('tokens', (e) => {
      source.close();
      const res = JSON.parse((e as MessageEvent<string>).data) as TTokenResponse;
      saveTokens(res.token, res.refresh_token);
      entered.current(res);
    });
    source.addEventListener('expired', () => {
      source.close();
      setState({ kind: 'expired' });
    });
    // The stream ends after its one answer; an error before any answer (offline, server restart) is shown, not retried.
    source.onerror = () => {
      source.close();
      setState((s) => (s.kind === 'opening' || s.kind === 'waiting' ? { kind: 'failed' } : s));
    };
    return () => source.close();
  }, [attempt]);

  const expired = state.kind === 'expired' || (state.kind === 'waiting' && secondsLeft === 0);
  return (
    <Flex vertical align="center" gap={12} data-testid="qr-login" data-state={expired ? 'expired' : state.kind}>
      {state.kind === 'waiting' && !expired && (
        <>
          <div data-testid="qr-login-code" data-link={state.link}>
            <QRCode value={state.link} size={QR_SIZE_PX} bgColor="#ffffff" />
          </div>
          <Typography.Text data-testid="qr-login-countdown">{t('auth.qr.countdown', { seconds: secondsLeft })}</Typography.Text>
          <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
            {t('auth.qr.help')}
          </Typography.Text>
        </>
      )}
      {state.kind === 'opening' && <Spin />}
      {(expired || state.kind === 'failed') && (
        <>
          <Alert
            type="warning"
            showIcon
            title={t(expired ? 'auth.errors.qrExpired' : 'auth.errors.offline')}
            data-testid="qr-login-expired"
          />
          <Button icon={<ReloadOutlined />} onClick={() => setAttempt((n) => n + 1)} data-testid="qr-login-renew">
            {t('auth.qr.renew')}
          </Button>
        </>
      )}
    </Flex>
  );
}

/** The confirming side, for a logged-in visitor of `/login?session_id=…`: where the code was shown, and confirm. */
export function QrConfirm({ sessionId, onDone }: { sessionId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const info = useQuery({
    queryKey: authKeys.qrSession(sessionId),
    queryFn: () => http.get<TQrSessionInfo>(qrLoginPaths.confirm, { session_id: sessionId }, { quiet: true }),
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: () => http.post<void>(qrLoginPaths.confirm, { session_id: sessionId }, { quiet: true }),
  });
  if (confirm.isSuccess) {
    return (
      <Result
        status="success"
        title={t('auth.qr.confirmed')}
        extra={<Button onClick={onDone}>{t('auth.qr.continue')}</Button>}
        data-testid="qr-confirmed"
      />
    );
  }
  if (info.isPending) return <Spin />;
  if (info.isError) {
    return <Alert type="warning" showIcon title={t(authErrorKey(info.error))} data-testid="qr-confirm-error" />;
  }
  return (
    <Flex vertical gap={12} data-testid="qr-confirm">
      <Typography.Paragraph>{t('auth.qr.confirmAs', { email: getSession().email })}</Typography.Paragraph>
      <Typography.Text type="secondary" data-testid="qr-confirm-origin">
        {t('auth.qr.origin', { ip: info.data.request_ip, agent: info.data.user_agent || '—' })}
      </Typography.Text>
      {confirm.isError && <Alert type="error" showIcon title={t(authErrorKey(confirm.error))} />}
      <Flex gap={8}>
        <Button type="primary" loading={confirm.isPending} onClick={() => confirm.mutate()} data-testid="qr-confirm-ok">
          {t('auth.qr.confirm')}
        </Button>
        <Button onClick={onDone} data-testid="qr-confirm-cancel">
          {t('auth.qr.notMe')}
        </Button>
      </Flex>
    </Flex>
  );
}

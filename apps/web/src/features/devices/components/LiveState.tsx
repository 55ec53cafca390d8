/** The live channel's state as a badge (`data-testid="live-state"`, `data-state` = idle|connecting|connected|reconnecting). */
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLiveState } from '../../../lib/live';

const COLOR = { idle: 'default', connecting: 'processing', connected: 'success', reconnecting: 'warning' } as const;

/** Badge of the shared live connection. */
export function LiveState() {
  const { t } = useTranslation();
  const state = useLiveState();
  return (
    <span data-testid="live-state" data-state={state}>
      <Badge status={COLOR[state]} text={t(`devices.live.${state}`)} />
    </span>
  );
}

/** Pieces shared by the authorisation pages: a request's state tag and the "what was asked for" cell. */
import type { TAuthzRequest, TAuthzState } from '@tessera/contracts';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const STATE_COLOR: Record<TAuthzState, string> = {
  pending: 'gold',
  allowed: 'success',
  denied: 'error',
  revoked: 'default',
  cancelled: 'default',
};

/** The request's state as a coloured tag. */
export function StateTag({ request }: { request: Pick<TAuthzRequest, 'id' | 'status'> }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOR[request.status]} data-testid={`authz-state-${request.id}`} data-state={request.status}>
      {t(`authz.states.${request.status}`)}
    </Tag>
  );
}

/** What was asked for: the device (linked when the viewer sees it) or "the whole project", and the project. */
export function TargetCell({
  request,
  linkDevice,
}: {
  request: Pick<TAuthzRequest, 'target' | 'device' | 'project'>;
  linkDevice: boolean;
}) {
  const { t } = useTranslation();
  const device = request.device;
  return (
    <Flex vertical gap={0}>
      {request.target === 'project' ? (
        <span>{t('authz.wholeProject', { name: request.project.name })}</span>
      ) : device ? (
        linkDevice ? (
          <Link to={`/device/detail/${device.tangram_id}`}>{device.name}</Link>
        ) : (
          <span>{device.name}</span>
        )
      ) : (
        <Typography.Text type="secondary">{t('authz.deviceGone')}</Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {request.target === 'project' ? device?.tangram_id : `${device?.tangram_id ?? ''} · ${request.project.name}`}
      </Typography.Text>
    </Flex>
  );
}

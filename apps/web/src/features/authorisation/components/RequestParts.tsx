/** Pieces shared by the authorisation pages: a request's state tag and the "what was asked for" cell. */
import type { TFunction } from 'i18next';
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

/**
 * A request's target in words: the device's name, "all devices of <project>" or the machine's name. Names are empty
 * on the asker's own request until it is allowed (docs/decisions/authorisation.md "What the asker sees"): the device
 * then reads as its Tangram ID, the project and the machine without a name.
 */
export function targetLabel(request: Pick<TAuthzRequest, 'target' | 'device' | 'project' | 'machine'>, t: TFunction): string {
  if (request.target === 'project') {
    return request.project?.name ? t('authz.wholeProject', { name: request.project.name }) : t('authz.wholeProjectUnnamed');
  }
  if (request.target === 'machine') {
    return request.machine?.name ? t('authz.machineTarget', { name: request.machine.name }) : t('authz.machineUnnamed');
  }
  return request.device ? request.device.name || request.device.tangram_id : t('authz.deviceGone');
}

/** What was asked for: the device (linked when the viewer sees it), "the whole project" or the machine, and where. */
export function TargetCell({
  request,
  linkDevice,
}: {
  request: Pick<TAuthzRequest, 'target' | 'device' | 'project' | 'machine'>;
  linkDevice: boolean;
}) {
  const { t } = useTranslation();
  const device = request.device;
  const label = targetLabel(request, t);
  const where =
    request.target === 'device'
      ? [device?.name ? device.tangram_id : null, request.project?.name].filter(Boolean).join(' · ')
      : request.target === 'project'
        ? device?.tangram_id
        : null;
  return (
    <Flex vertical gap={0}>
      {request.target === 'device' && device && linkDevice ? (
        <Link to={`/device/detail/${device.tangram_id}`}>{label}</Link>
      ) : request.target === 'device' && !device ? (
        <Typography.Text type="secondary">{label}</Typography.Text>
      ) : (
        <span>{label}</span>
      )}
      {where && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {where}
        </Typography.Text>
      )}
    </Flex>
  );
}

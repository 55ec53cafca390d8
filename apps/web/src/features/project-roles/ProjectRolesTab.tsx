/**
 * /project/detail/{id}/roles (spec §2 "another tab list also mentions roles"; §6 "device roles (regular users),
 * project roles (component makers)"): the project's roles of both kinds, one kind at a time (`?kind=device` opens the
 * device roles), each with its explanation.
 */
import type { TRoleKind } from '@tessera/contracts';
import { Flex, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { RolesTable } from './RolesTable';

const PROJECT_KINDS = ['project', 'device'] as const satisfies readonly TRoleKind[];

/** The roles tab. */
export default function ProjectRolesTab() {
  const { t } = useTranslation();
  const projectId = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind') === 'device' ? 'device' : 'project';
  return (
    <Flex vertical gap={12}>
      <Segmented<(typeof PROJECT_KINDS)[number]>
        value={kind}
        onChange={(k) => setParams(k === 'project' ? {} : { kind: k }, { replace: true })}
        options={PROJECT_KINDS.map((k) => ({
          value: k,
          label: <span data-testid={`role-kind-${k}`}>{t(`projectRoles.kinds.${k}`)}</span>,
        }))}
        style={{ alignSelf: 'flex-start' }}
      />
      <Typography.Text type="secondary">{t(`projectRoles.kindHints.${kind}`)}</Typography.Text>
      <RolesTable key={kind} kind={kind} projectId={projectId} />
    </Flex>
  );
}

/**
 * /machine/roles (spec §6 "machine roles"; §7 machine role CRUD): the tenant's machine roles — members see every
 * device bound to the role's machines, with the role's permissions. Vendor only.
 */
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RolesTable } from './RolesTable';

/** The page. */
export default function MachineRolesPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12} data-testid="machine-roles-page">
      <Typography.Text type="secondary">{t('projectRoles.kindHints.machine')}</Typography.Text>
      <RolesTable kind="machine" projectId={null} />
    </Flex>
  );
}

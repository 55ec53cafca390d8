/**
 * /machine/equipment/{id} (docs/decisions/machines.md "Machine page"): one machine — its configure, picture, serial
 * number, location and ISO class — with its active alerts and, per component, the bound device's latest values of the
 * component's keys, live over the console's MQTT channel. Vendors edit the machine here; a machine the viewer may not
 * see reads as not found.
 */
import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Flex, Image, Row, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageError } from '../../../components/PageState';
import { useSession } from '../../../lib/useSession';
import { LiveState } from '../../devices/components/LiveState';
import { useMachineInstance } from '../api';
import { ComponentLiveCard } from '../components/ComponentLiveCard';
import { InstanceDrawer } from '../components/InstanceDrawer';
import { MachineAlerts } from '../components/MachineAlerts';
import { useMachineClassText } from '../components/MachineClassSelect';

/** The machine page. */
export default function MachinePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id) || 0;
  const isVendor = useSession().level !== 'user';
  const machine = useMachineInstance(id);
  const classText = useMachineClassText();
  const [editing, setEditing] = useState(false);
  const back = (
    <Link to="/machine/equipment" data-testid="machine-back">
      <ArrowLeftOutlined /> {t('machines.page.back')}
    </Link>
  );

  if (machine.isLoading) return <Skeleton active data-testid="machine-loading" />;
  if (machine.isError || !machine.data) return <PageError error={machine.error} back="/machine/equipment" />;
  const m = machine.data;
  const tangramIds = m.components.flatMap((c) => (c.device ? [c.device.tangram_id] : []));
  const cls = classText(m.machine_class);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {back}
      <Card
        title={
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="machine-name">
            {m.name}
          </Typography.Title>
        }
        extra={
          <Space size="large">
            <LiveState />
            {isVendor && (
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="machine-edit">
                {t('machines.instance.edit')}
              </Button>
            )}
          </Space>
        }
      >
        <Flex gap={24} align="start" wrap>
          {m.image_url && <Image src={m.image_url} width={120} height={120} style={{ objectFit: 'contain' }} alt={m.configure_name} />}
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2 }}
            style={{ flex: 1, minWidth: 280 }}
            items={[
              { key: 'configure', label: t('machines.instance.configure'), children: m.configure_name },
              { key: 'serial', label: t('machines.instance.serial'), children: m.serial_number || '—' },
              { key: 'location', label: t('machines.instance.location'), children: m.location || '—' },
              {
                key: 'class',
                label: t('machines.instance.class'),
                children: (
                  <Tooltip title={cls.hint}>
                    <span data-testid="machine-class-label">{cls.label}</span>
                  </Tooltip>
                ),
              },
            ]}
          />
        </Flex>
      </Card>
      <MachineAlerts tangramIds={tangramIds} />
      <Row gutter={[16, 16]}>
        {m.components.map((c) => (
          <Col key={c.id} xs={24} md={12} xl={8}>
            <ComponentLiveCard component={c} isVendor={isVendor} machineClass={m.machine_class} />
          </Col>
        ))}
      </Row>
      <InstanceDrawer machine={editing ? m : undefined} onClose={() => setEditing(false)} />
    </Space>
  );
}

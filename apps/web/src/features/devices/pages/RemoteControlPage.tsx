/**
 * remote-control tab of the device detail (spec §7 devices "remoteControl getDeviceInfo and sensorCommand",
 * "clean-data"; docs/decisions/device-control.md): ask the device for its info, send a sensor command, the recent
 * commands, and — for vendors — the danger zone that deletes the device's data.
 */
import { Col, Row, Space } from 'antd';
import { getSession } from '../../../lib/session';
import { CleanDataCard } from '../components/CleanDataCard';
import { CommandLogCard } from '../components/CommandLogCard';
import { DeviceInfoCard } from '../components/DeviceInfoCard';
import { SensorCommandCard } from '../components/SensorCommandCard';
import { useDeviceOutlet } from '../context';

/** The remote-control page. */
export default function RemoteControlPage() {
  const { device } = useDeviceOutlet();
  const isVendor = getSession().level !== 'user';
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <DeviceInfoCard tangramId={device.tangram_id} />
        </Col>
        <Col xs={24} xl={12}>
          <SensorCommandCard device={device} canAct={isVendor} />
        </Col>
      </Row>
      <CommandLogCard tangramId={device.tangram_id} />
      {isVendor && <CleanDataCard tangramId={device.tangram_id} />}
    </Space>
  );
}

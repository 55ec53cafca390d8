/** Latest-value widget: one key's newest value with its unit and age, live (docs/dashboard.md "Widgets"). */
import type { TWidgetParameter } from '@tessera/contracts';
import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNow } from '../../../lib/useNow';
import { formatAge, formatValues } from '../../devices/model/format';
import { useWidgetDevice } from './useWidgetDevice';
import { DeviceGone, Loading, NoData } from './WidgetMessage';
import { Text } from '../../../components/Text';

/** The widget body. */
export function LatestWidget({ p }: { p: TWidgetParameter<'latest'> }) {
  const { i18n } = useTranslation();
  const { detail, twin, gone, loading } = useWidgetDevice(p.tangram_id);
  const now = useNow();
  if (gone) return <DeviceGone tangramId={p.tangram_id} />;
  if (loading) return <Loading />;
  const value = twin?.telemetry.find((v) => v.key === p.key);
  if (!value) return <NoData />;
  const sensor = detail?.sensors.find((s) => s.key === p.key);
  return (
    <Flex vertical align="center" justify="center" style={{ height: '100%' }}>
      <Text style={{ fontSize: 32, fontWeight: 600 }} testId="widget-latest-value">
        {formatValues(value.vs, i18n.language)}
        {sensor?.unit ? <span style={{ fontSize: 16, marginLeft: 4 }}>{sensor.unit}</span> : null}
      </Text>
      <Text type="secondary">
        {sensor?.name ?? p.key} · {detail?.name} · {formatAge(value.ts, Math.max(now, value.ts), i18n.language)}
      </Text>
    </Flex>
  );
}

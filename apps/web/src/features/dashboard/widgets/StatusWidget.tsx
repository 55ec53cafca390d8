/** Status widget: a device's decoded status groups (spec §4 status word), live. */
import type { TWidgetParameter } from '@tessera/contracts';
import { Descriptions } from 'antd';
import { useWidgetDevice } from './useWidgetDevice';
import { DeviceGone, Loading, NoData } from './WidgetMessage';

/** The widget body. */
export function StatusWidget({ p }: { p: TWidgetParameter<'status'> }) {
  const { twin, gone, loading } = useWidgetDevice(p.tangram_id);
  if (gone) return <DeviceGone tangramId={p.tangram_id} />;
  if (loading) return <Loading />;
  const decoded = twin?.status?.decoded ?? [];
  if (decoded.length === 0) return <NoData />;
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="widget-status"
      items={decoded.map((g, i) => ({ key: String(i), label: g.name, children: g.label ?? String(g.raw) }))}
    />
  );
}

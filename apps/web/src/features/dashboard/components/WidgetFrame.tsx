/**
 * A widget on the grid: a panel (components/Panel.tsx) whose header is the drag handle (title, settings, delete) and whose body draws the
 * widget's type with its parsed parameter. A parameter that no longer parses says so instead of breaking the page.
 * Each type's code loads when a widget of that type is on the page: ECharts only with a chart, gauge or platform
 * widget, ECharts' bars only with a bar widget.
 */
import { DeleteOutlined, SettingOutlined } from '@ant-design/icons';
import type { TWidget, TWidgetParameter } from '@tessera/contracts';
import { parseWidgetParameterMini } from '@tessera/contracts/mini';
import { Button, Space, Tooltip } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../widgets/WidgetMessage';
import { Panel } from '../../../components/Panel';
import { Text } from '../../../components/Text';

const AlertsWidget = lazy(() => import('../widgets/AlertsWidget').then((m) => ({ default: m.AlertsWidget })));
const ChartWidget = lazy(() => import('../widgets/ChartWidget').then((m) => ({ default: m.ChartWidget })));
// A bar widget also registers ECharts' bars (lib/chartsBar.ts), which no other widget draws.
const BarWidget = lazy(() =>
  Promise.all([import('../widgets/ChartWidget'), import('../../../lib/chartsBar')]).then(([m]) => ({ default: m.ChartWidget })),
);
const DevicesWidget = lazy(() => import('../widgets/DevicesWidget').then((m) => ({ default: m.DevicesWidget })));
const GaugeWidget = lazy(() => import('../widgets/GaugeWidget').then((m) => ({ default: m.GaugeWidget })));
const LatestWidget = lazy(() => import('../widgets/LatestWidget').then((m) => ({ default: m.LatestWidget })));
const PlatformWidget = lazy(() => import('../widgets/PlatformWidget').then((m) => ({ default: m.PlatformWidget })));
const StatusWidget = lazy(() => import('../widgets/StatusWidget').then((m) => ({ default: m.StatusWidget })));

/** Pixels of a panel's header; the body gets the rest of the grid cell. */
export const HEADER_PX = 38;

function Body({ widget, height }: { widget: TWidget; height: number }) {
  const { t } = useTranslation();
  // Parsed once per parameter, so a widget's `p` stays the same object while the page re-renders around it.
  const parsed = useMemo(() => parseWidgetParameterMini(widget.type, widget.parameter), [widget.type, widget.parameter]);
  if (!parsed.ok) return <Text type="danger">{t('dashboard.badParameter')}</Text>;
  const p = parsed.value;
  switch (widget.type) {
    case 'latest':
      return <LatestWidget p={p as TWidgetParameter<'latest'>} />;
    case 'gauge':
      return <GaugeWidget p={p as TWidgetParameter<'gauge'>} height={height} />;
    case 'line':
      return <ChartWidget p={p as TWidgetParameter<'line'>} kind="line" height={height} />;
    case 'bar':
      return <BarWidget p={p as TWidgetParameter<'line'>} kind="bar" height={height} />;
    case 'status':
      return <StatusWidget p={p as TWidgetParameter<'status'>} />;
    case 'alerts':
      return <AlertsWidget p={p as TWidgetParameter<'alerts'>} />;
    case 'devices':
      return <DevicesWidget p={p as TWidgetParameter<'devices'>} />;
    case 'platform':
      return <PlatformWidget p={p as TWidgetParameter<'platform'>} height={height} />;
  }
}

/** The panel; `height` is the grid cell's height in pixels. */
export function WidgetFrame({
  widget,
  height,
  editable,
  onEdit,
  onDelete,
}: {
  widget: TWidget;
  height: number;
  editable: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const bodyHeight = Math.max(40, height - HEADER_PX - 16);
  return (
    <Panel
      size="small"
      data-testid={`widget-${widget.id}`}
      data-type={widget.type}
      style={{ height: '100%', overflow: 'hidden' }}
      headerStyle={{ minHeight: HEADER_PX }}
      bodyStyle={{ height: height - HEADER_PX, overflow: 'auto', padding: 8 }}
      title={
        <span className="widget-drag" style={{ cursor: editable ? 'move' : undefined, display: 'block' }}>
          {widget.title || t(`dashboard.types.${widget.type}`)}
        </span>
      }
      extra={
        editable && (
          <Space size={2}>
            <Tooltip title={t('dashboard.editWidget')}>
              <Button
                size="small"
                type="text"
                icon={<SettingOutlined />}
                aria-label={t('dashboard.editWidget')}
                onClick={onEdit}
                data-testid={`widget-edit-${widget.id}`}
              />
            </Tooltip>
            <Tooltip title={t('common.delete')}>
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                onClick={onDelete}
                data-testid={`widget-delete-${widget.id}`}
              />
            </Tooltip>
          </Space>
        )
      }
    >
      <Suspense fallback={<Loading />}>
        <Body widget={widget} height={bodyHeight} />
      </Suspense>
    </Panel>
  );
}

/**
 * A widget on the grid: a card whose header is the drag handle (title, settings, delete) and whose body draws the
 * widget's type with its parsed parameter. A parameter that no longer parses says so instead of breaking the page.
 */
import { DeleteOutlined, SettingOutlined } from '@ant-design/icons';
import { parseWidgetParameter, type TWidget, type TWidgetParameter } from '@tessera/contracts';
import { Button, Card, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlertsWidget } from '../widgets/AlertsWidget';
import { ChartWidget } from '../widgets/ChartWidget';
import { DevicesWidget } from '../widgets/DevicesWidget';
import { GaugeWidget } from '../widgets/GaugeWidget';
import { LatestWidget } from '../widgets/LatestWidget';
import { PlatformWidget } from '../widgets/PlatformWidget';
import { StatusWidget } from '../widgets/StatusWidget';

/** Pixels of a card's header; the body gets the rest of the grid cell. */
export const HEADER_PX = 38;

function Body({ widget, height }: { widget: TWidget; height: number }) {
  const { t } = useTranslation();
  const parsed = parseWidgetParameter(widget.type, widget.parameter);
  if (!parsed.ok) return <Typography.Text type="danger">{t('dashboard.badParameter')}</Typography.Text>;
  const p = parsed.value;
  switch (widget.type) {
    case 'latest':
      return <LatestWidget p={p as TWidgetParameter<'latest'>} />;
    case 'gauge':
      return <GaugeWidget p={p as TWidgetParameter<'gauge'>} height={height} />;
    case 'line':
    case 'bar':
      return <ChartWidget p={p as TWidgetParameter<'line'>} kind={widget.type} height={height} />;
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

/** The card; `height` is the grid cell's height in pixels. */
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
    <Card
      size="small"
      data-testid={`widget-${widget.id}`}
      data-type={widget.type}
      style={{ height: '100%', overflow: 'hidden' }}
      styles={{ header: { minHeight: HEADER_PX }, body: { height: height - HEADER_PX, overflow: 'auto', padding: 8 } }}
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
      <Body widget={widget} height={bodyHeight} />
    </Card>
  );
}

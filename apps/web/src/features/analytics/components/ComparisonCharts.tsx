/**
 * The comparison charts: the compared series overlaid on one time axis, one chart per unit (model/compare.ts), each
 * with a legend, tooltip, zoom and a PNG export of what it shows.
 */
import { PictureOutlined } from '@ant-design/icons';

import { Button, Card } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { echarts, type TChartOption } from '../../../lib/charts';
import { fileStamp, saveUrl } from '../../../lib/saveFile';
import { EChart } from '../../devices/components/EChart';
import { formatValues } from '../../devices/model/format';
import type { TRange } from '../../devices/model/range';
import { chartsByUnit, seriesPoints, type TComparedSeries, type TSeriesAnswer, type TUnitChart } from '../model/compare';

/** Props: the compared series, their answers (same order) and the range the x axis spans. */
export interface TComparisonChartsProps {
  series: readonly TComparedSeries[];
  answers: readonly (TSeriesAnswer | undefined)[];
  range: TRange;
}

/** The charts, one card per unit. */
export function ComparisonCharts({ series, answers, range }: TComparisonChartsProps) {
  const charts = useMemo(() => chartsByUnit(series), [series]);
  return (
    <>
      {charts.map((chart, i) => (
        <UnitChart key={chart.unit || '-'} index={i} chart={chart} series={series} answers={answers} range={range} />
      ))}
    </>
  );
}

function UnitChart({ chart, index, series, answers, range }: TComparisonChartsProps & { chart: TUnitChart; index: number }) {
  const { t, i18n } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const { option, drawn } = useMemo(() => {
    const lines = chart.series.map((i) => ({ name: series[i].label, data: seriesPoints(answers[i]) }));
    const option: TChartOption = {
      animation: false,
      grid: { left: 56, right: 24, top: 48, bottom: 72 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => formatValues([typeof v === 'number' ? v : null], i18n.language) },
      legend: { top: 0, type: 'scroll' },
      xAxis: { type: 'time', min: range[0], max: range[1] },
      yAxis: { type: 'value', scale: true, name: chart.unit || undefined },
      dataZoom: [{ type: 'inside' }, { type: 'slider' }],
      series: lines.map((l) => ({ type: 'line', name: l.name, data: l.data, showSymbol: l.data.length < 60, connectNulls: false })),
    };
    return { option, drawn: lines.reduce((n, l) => n + l.data.filter(([, v]) => v !== null).length, 0) };
  }, [chart, series, answers, range, i18n.language]);

  const savePng = () => {
    const el = box.current?.querySelector<HTMLDivElement>('[data-testid="analytics-chart"]');
    const instance = el ? echarts.getInstanceByDom(el) : undefined;
    if (!instance) return;
    const url = instance.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
    saveUrl(`analytics-${index + 1}-${fileStamp(new Date())}.png`, url);
  };

  return (
    <Card
      size="small"
      title={chart.unit ? t('analytics.chartUnit', { unit: chart.unit }) : t('analytics.chart')}
      extra={
        <Button size="small" icon={<PictureOutlined />} onClick={savePng} data-testid="analytics-png">
          {t('analytics.png')}
        </Button>
      }
      data-testid="analytics-chart-card"
    >
      <div ref={box}>
        <EChart testId="analytics-chart" option={option} points={drawn} />
      </div>
    </Card>
  );
}

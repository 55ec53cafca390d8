/**
 * Bar series for the console's ECharts build (lib/charts.ts): imported, in a lazy chunk of its own, by the dashboard's
 * bar widget (features/dashboard/components/WidgetFrame.tsx), so a dashboard without one does not load bars.
 */
import { BarChart } from 'echarts/charts';
import { echarts } from './charts';

echarts.use([BarChart]);

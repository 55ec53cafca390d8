/** Rule-engine metrics: project and app rules, platform rules (totals since start, read at scrape time). */
import type { Registry } from 'prom-client';
import { collectedCounter } from './collected.js';
import type { TMetricSources } from './sources.js';

/** Declares the project-rule and platform-rule metrics on `registry`. */
export function registerEngineMetrics(registry: Registry, sources: TMetricSources): void {
  const rules = () => sources.rules();
  const flows = () => sources.platformRules();
  collectedCounter({
    registry,
    name: 'tessera_rule_evaluations_total',
    help: 'Project and app rule evaluations after committed batches.',
    read: () => [[{}, rules().evaluations]],
  });
  collectedCounter({
    registry,
    name: 'tessera_rule_firings_total',
    help: 'Project and app rule firings (notifications and commands ran).',
    read: () => [[{}, rules().fired]],
  });
  collectedCounter({
    registry,
    name: 'tessera_alerts_opened_total',
    help: 'Alerts opened by project and app rules.',
    read: () => [[{}, rules().alertsOpened]],
  });
  collectedCounter({
    registry,
    name: 'tessera_rule_evaluation_errors_total',
    help: 'Device evaluations of project and app rules that failed.',
    read: () => [[{}, rules().errors]],
  });
  collectedCounter({
    registry,
    name: 'tessera_platform_rule_runs_total',
    help: 'Platform-rule runs, by outcome (ok, error, refused over the tenant limit, skipped at stop).',
    labelNames: ['outcome'],
    read: () => {
      const f = flows();
      return [
        [{ outcome: 'ok' }, f.runs - f.errors],
        [{ outcome: 'error' }, f.errors],
        [{ outcome: 'refused' }, f.refused],
        [{ outcome: 'skipped' }, f.skipped],
      ];
    },
  });
}

/**
 * Metrics whose values are read when Prometheus scrapes, not pushed on the hot path: a counter mirrors a total the
 * process already keeps (ingest's, the rule engines'), a gauge reads a state (queue depth, pools, connections).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** One labelled value: its labels (names as declared) and the number. */
export type TSample<L extends string> = readonly [labels: Partial<Record<L, string>>, value: number];

/** What a collected metric is declared with. */
export interface TCollectedSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  registry: Registry;
  /** Answers the samples at scrape time; an async read (the database) may take a while, bounded by the caller. */
  read: () => Iterable<TSample<L>> | Promise<Iterable<TSample<L>>>;
}

/**
 * A counter whose value is a running total kept elsewhere (never decreasing while the process lives): on each scrape
 * it is set to what `read` answers.
 */
export function collectedCounter<L extends string>(spec: TCollectedSpec<L>): Counter<L> {
  return new Counter<L>({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [spec.registry],
    async collect() {
      const samples = await spec.read();
      this.reset();
      for (const [labels, value] of samples) this.inc(labels, value);
    },
  });
}

/** A gauge set on each scrape to what `read` answers (series `read` no longer answers are dropped). */
export function collectedGauge<L extends string>(spec: TCollectedSpec<L>): Gauge<L> {
  return new Gauge<L>({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [spec.registry],
    async collect() {
      const samples = await spec.read();
      this.reset();
      for (const [labels, value] of samples) this.set(labels, value);
    },
  });
}

/** The samples of a record keyed by one label's values. */
export function byLabel<L extends string>(label: L, values: Readonly<Record<string, number>>): TSample<L>[] {
  return Object.entries(values).map(([key, value]) => [{ [label]: key } as Partial<Record<L, string>>, value] as const);
}

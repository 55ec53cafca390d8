/** GET /healthz answer. */
import { z } from 'zod';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  broker: z.enum(['ok', 'down']),
  /** `stalled` when device publishes have waited INGEST_STALL_MS without any ingest batch committing. */
  ingest: z.enum(['ok', 'stalled']),
  db_kind: z.enum(['pglite', 'postgres']),
  broker_kind: z.enum(['embedded', 'external']),
});
export type THealth = z.infer<typeof ZHealth>;

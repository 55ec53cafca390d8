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
  /**
   * The device HTTP port (DEVICE_HTTP_PORT), present when it is set: `down` from an unexpected end of its thread until
   * the thread is started again (within seconds). It does not make `status` degraded: the console and MQTT still serve.
   */
  device_http: z.enum(['ok', 'down']).optional(),
});
export type THealth = z.infer<typeof ZHealth>;

/** GET /healthz answer. */
import { z } from 'zod';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  broker: z.enum(['ok', 'down']),
  db_kind: z.enum(['pglite', 'postgres']),
  broker_kind: z.enum(['embedded', 'external']),
});
export type THealth = z.infer<typeof ZHealth>;

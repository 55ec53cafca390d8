/** The database handle auth functions accept: the pool or an open transaction (so callers can compose). */
import type { Db } from '../../db/client.js';

/** A Drizzle database or transaction. */
export type TDbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

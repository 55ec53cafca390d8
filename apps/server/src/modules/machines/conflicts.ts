/**
 * Unique indexes of the machine tables → 409 CONFLICT (docs/decisions/machines.md "Conflicts"). Writers check what
 * they can first (a device bound elsewhere is named with its machine); the indexes settle races, and this names which
 * rule a violation broke.
 */
import { conflict } from '../../core/errors.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';

const MESSAGES: Record<string, string> = {
  machine_configures_tenant_name_uq: 'a machine configure of that name already exists',
  machine_components_configure_name_uq: 'two components of the configure have the same name',
  machines_tenant_name_uq: 'a machine of that name already exists',
  machine_bindings_device_uq: 'a device is already bound to another machine',
};

/** The constraint a unique violation (23505) names, on either driver, through Drizzle's wrapping; null when unnamed. */
function constraintOf(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
  }
  return null;
}

/**
 * Runs `work`, turning a unique violation of a machine table into 409 CONFLICT; `names` gives the message per
 * constraint where the caller can say more (`a machine configure named "X" already exists`).
 * @throws AppError 409 CONFLICT on a unique violation; anything else `work` throws.
 */
export async function withMachineConflicts<T>(work: () => Promise<T>, names: Record<string, string> = {}): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const constraint = constraintOf(err) ?? '';
    throw conflict(names[constraint] ?? MESSAGES[constraint] ?? 'the change conflicts with another machine or configure');
  }
}

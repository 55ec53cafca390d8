/**
 * Reading keys no sensor declares in a message of a project that accepts them (docs/decisions/telemetry.md
 * "Undeclared keys"): each such key is typed by its value here — one to three finite numbers are `number`, one string,
 * boolean, or JSON object or array its type, within the bounds of contracts checkTelemetryValue — and the message is
 * answered as an offer of those keys (TParsedMessage `newKeys`), which the pipeline registers before parsing it again.
 * A discarded key is refused as `unknown_key`, as are a message's new keys when they would not fit the project's offer.
 */
import { checkTelemetryValue, type TTelemetryValueType, UNDECLARED_KEYS_MAX } from '@tessera/contracts';
import type { TNewKey, TParsedMessage, TUndeclaredIntake } from './parse-outcome.js';

/** A refusal of a parsed message. */
type TRefusal = Extract<TParsedMessage, { ok: false }>;

/** The keys of one message the project does not know yet, by key, in the order they came. */
export class NewKeysOfMessage {
  private readonly found = new Map<string, TNewKey>();

  constructor(
    private readonly intake: TUndeclaredIntake,
    private readonly count: number,
  ) {}

  /** Types `key` by its values `vs`; a refusal when it is discarded, its value is not storable, or it changes type. */
  add(key: string, vs: readonly unknown[]): TRefusal | null {
    if (this.intake.discarded.has(key)) return this.refuse('unknown_key', `unknown key ${key} (discarded from the undeclared keys)`);
    const typed = typeOfValues(key, vs);
    if ('reason' in typed) return this.refuse(typed.reason, typed.detail);
    const seen = this.found.get(key);
    if (!seen) this.found.set(key, typed);
    else if (seen.type !== typed.type)
      return this.refuse('malformed', `${key}: takes ${describeType(seen.type)}, got ${describeType(typed.type)}`);
    return null;
  }

  /** Whether the message named a key the project does not know. */
  get isEmpty(): boolean {
    return this.found.size === 0;
  }

  /** The offer of the keys found, or their refusal when the project takes no more. */
  outcome(): TRefusal {
    const keys = [...this.found.values()];
    const names = keys.map((k) => k.key).join(', ');
    if (!this.intake.canOffer(keys.length)) {
      return this.refuse(
        'unknown_key',
        `unknown key ${names}: over the project's ${UNDECLARED_KEYS_MAX} undeclared keys, or it takes none now`,
      );
    }
    return { ok: false, reason: 'unknown_key', count: this.count, detail: `undeclared key ${names}`, newKeys: keys };
  }

  private refuse(reason: TRefusal['reason'], detail: string): TRefusal {
    return { ok: false, reason, count: this.count, detail };
  }
}

/** The type a key takes from its first values `vs` (one to three), or why they cannot be stored. Pure. */
export function typeOfValues(key: string, vs: readonly unknown[]): TNewKey | { reason: TRefusal['reason']; detail: string } {
  if (vs.every((v) => typeof v === 'number' && Number.isFinite(v))) return { key, type: 'number', valueCount: vs.length };
  const value = vs[0];
  const type = vs.length === 1 ? nonNumericTypeOf(value) : null;
  if (!type)
    return { reason: 'malformed', detail: `${key}: takes one to three finite numbers, or one string, boolean or JSON object or array` };
  const refusal = checkTelemetryValue(key, type, value);
  return refusal ?? { key, type, valueCount: 1 };
}

function nonNumericTypeOf(value: unknown): Exclude<TTelemetryValueType, 'number'> | null {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'object' && value !== null ? 'json' : null;
}

function describeType(type: TTelemetryValueType): string {
  if (type === 'json') return 'a JSON object or array';
  return type === 'number' ? 'numbers' : `a ${type}`;
}

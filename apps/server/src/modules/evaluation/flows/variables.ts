/**
 * Typed variables of platform rules (spec §3 variable types; docs/platform-rules.md "Variables"). A value assigned
 * to a variable is cast to its type; what does not fit is a run error, never a silent wrap or rounding: `int` is a
 * signed 32-bit integer, `uint` an unsigned one, `float` any finite number, `time` an integer of epoch ms
 * (0 … 8.64e15), `boolean` true or false, `string` a text of at most FLOW_STRING_MAX characters.
 */
import { FLOW_STRING_MAX, type TFlowVariableType } from '@tessera/contracts';
import { FlowRunError, textOf, type TFlowValue } from './expression.js';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const UINT_MAX = 2 ** 32 - 1;
const TIME_MAX = 8_640_000_000_000_000;

function integer(v: TFlowValue, type: string, min: number, max: number): number {
  const n = typeof v === 'string' && /^-?[0-9]{1,20}$/.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n !== 'number') throw new FlowRunError(`cannot make a ${type} of ${typeof v} ${JSON.stringify(v)}`);
  if (!Number.isInteger(n)) throw new FlowRunError(`${n} is not a whole number (${type})`);
  if (n < min || n > max) throw new FlowRunError(`${n} overflows ${type} (${min} … ${max})`);
  return n;
}

/**
 * Casts `v` to `type`. Texts of digits become numbers; `"true"`/`"false"` become booleans; numbers, booleans and
 * JSON values (compact) become texts.
 * @throws FlowRunError when the value does not fit the type.
 */
export function castTo(type: TFlowVariableType, v: TFlowValue): TFlowValue {
  switch (type) {
    case 'int':
      return integer(v, 'int', INT_MIN, INT_MAX);
    case 'uint':
      return integer(v, 'uint', 0, UINT_MAX);
    case 'time':
      return integer(v, 'time', 0, TIME_MAX);
    case 'float': {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new FlowRunError(`cannot make a float of ${JSON.stringify(v)}`);
      return n;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw new FlowRunError(`cannot make a boolean of ${JSON.stringify(v)}`);
    default: {
      const s = textOf(v);
      if (s.length > FLOW_STRING_MAX) throw new FlowRunError(`a text longer than ${FLOW_STRING_MAX} characters`);
      return s;
    }
  }
}

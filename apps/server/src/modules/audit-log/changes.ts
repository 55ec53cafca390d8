/**
 * What an audit entry keeps of a change (docs/decisions/audit-log.md "What is recorded"): only the fields whose value
 * changed, each `{before, after}`; a secret's value is never kept (AUDIT_MASK in its place, still showing that it
 * changed); fields that move without anyone changing them (times stamped by the database or by devices) are left out.
 */
import { createHash } from 'node:crypto';
import { AUDIT_MASK, type TAuditChanges } from '@tessera/contracts';
import { sql, type SQL } from 'drizzle-orm';

/** A field's name marks a secret: passwords, hashes, device secrets, tokens, API keys, encrypted values, one-time codes. */
const SECRET_FIELD = /password|passwd|secret|token|hash|api_?key|credential|private|cipher|_enc$|^code$|verify_?code|session_id/i;

/** Fields that change without a person changing them: stamps and what devices report. */
const NOISE_FIELDS = new Set(['updated_at', 'created_at', 'last_seen_at', 'first_seen_at', 'status_value', 'status_ts']);

/** A value longer than this, as JSON, is kept as its size and digest instead (a platform rule's graph, a page's HTML). */
export const AUDIT_VALUE_MAX_CHARS = 16_384;

/** True when a field of this name holds a secret whose value must never be stored. */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/**
 * The value as it is stored: masked for a secret, a digest for a very long one, else itself (null for undefined).
 * {@link storedSql} is the same rule in SQL.
 */
function stored(name: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (isSecretField(name)) return AUDIT_MASK;
  const json = JSON.stringify(value);
  if (json !== undefined && json.length > AUDIT_VALUE_MAX_CHARS) {
    return { omitted: 'too long', chars: json.length, sha256: createHash('sha256').update(json).digest('hex') };
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The changed fields between two snapshots of an entity (field name → value), secrets masked. `before` null is a
 * creation (every field set is listed), `after` null a deletion (every field held is listed).
 */
export function diffFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): TAuditChanges {
  const changes: TAuditChanges = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    if (NOISE_FIELDS.has(name)) continue;
    const was = before?.[name];
    const is = after?.[name];
    if (same(was, is)) continue;
    changes[name] = { before: stored(name, was), after: stored(name, is) };
  }
  return changes;
}

/** `text` as an SQL string literal (part of the statement's text, so a prepared statement keeps it). */
const textLiteral = (text: string): SQL => sql.raw(`'${text.replaceAll("'", "''")}'`);

/**
 * {@link stored} in SQL, for the field `name` whose value is the expression `value`: the jsonb the entry keeps. The
 * JSON text measured and digested is PostgreSQL's (`to_jsonb(…)::text`), which for a text, a number or a boolean is
 * JSON.stringify's text (a text's length is counted in characters there, in UTF-16 units here: only characters outside
 * the Basic Multilingual Plane count differently).
 */
function storedSql(name: string, value: SQL): SQL {
  if (isSecretField(name)) return sql`case when ${value} is null then null else to_jsonb(${textLiteral(AUDIT_MASK)}::text) end`;
  const json = sql`to_jsonb(${value})`;
  return sql`case when length(${json}::text) > ${sql.raw(String(AUDIT_VALUE_MAX_CHARS))}
    then jsonb_build_object('omitted', 'too long', 'chars', length(${json}::text),
      'sha256', encode(sha256(convert_to(${json}::text, 'UTF8')), 'hex'))
    else ${json} end`;
}

/** One field of {@link diffFieldsSql}: its name (column name) and the SQL expressions of its value before and after. */
export interface TFieldSql {
  name: string;
  before: SQL;
  after: SQL;
}

/**
 * {@link diffFields} in SQL, for an entry written by the change's own statement (audited-update.ts): a jsonb
 * expression of the changed ones among `fields` as `{name: {before, after}}`, secrets masked, long values digested,
 * stamps left out — the same rules, from the same definitions. Values are compared as jsonb (`is distinct from`).
 */
export function diffFieldsSql(fields: readonly TFieldSql[]): SQL {
  const parts = fields
    .filter((f) => !NOISE_FIELDS.has(f.name))
    .map(
      (f) => sql`case when to_jsonb(${f.before}) is distinct from to_jsonb(${f.after})
        then jsonb_build_object(${textLiteral(f.name)}, jsonb_build_object('before', ${storedSql(f.name, f.before)}, 'after', ${storedSql(f.name, f.after)}))
        else '{}'::jsonb end`,
    );
  return sql`(${sql.join([sql`'{}'::jsonb`, ...parts], sql` || `)})`;
}

/** The fields of a request body (a JSON object; anything else gives none) as `{before: null, after}`, secrets masked. */
export function bodyChanges(body: unknown): TAuditChanges {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  return diffFields(null, body as Record<string, unknown>);
}

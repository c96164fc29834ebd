import { z } from 'zod';

/**
 * A document's own metadata: what a tenant filters and cites by (an access group, a product
 * version, a language, a date). Plain JSON, bounded so that a row, a workflow input and every
 * copy in a search index stay small whatever a caller sends:
 * - at most METADATA_MAX_KEYS keys, each a name of letters, digits, `_`, `-` and `.` starting with a letter;
 * - a value is a string (at most METADATA_MAX_STRING characters), a finite number, a boolean, or a
 *   list of at most METADATA_MAX_LIST strings (a tag list: a filter's `eq` matches any of them);
 * - the whole, as JSON, at most METADATA_MAX_BYTES bytes.
 * Dates are strings; written as ISO 8601 in UTC (2026-12-07T10:00:00Z) they sort and range-filter
 * as dates in every store.
 */
export const METADATA_MAX_KEYS = 32;
export const METADATA_MAX_STRING = 512;
export const METADATA_MAX_LIST = 64;
export const METADATA_MAX_BYTES = 8192;

export const METADATA_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const value = z.union([
  z.string().max(METADATA_MAX_STRING),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(METADATA_MAX_STRING)).max(METADATA_MAX_LIST),
]);

export type MetadataValue = z.infer<typeof value>;
export type DocumentMetadata = Record<string, MetadataValue>;

export const documentMetadataSchema = z
  .record(z.string().regex(METADATA_KEY, 'a key of letters, digits, _ - . starting with a letter, at most 64'), value)
  .refine((meta) => Object.keys(meta).length <= METADATA_MAX_KEYS, {
    message: `at most ${METADATA_MAX_KEYS} keys`,
  })
  .refine((meta) => Buffer.byteLength(JSON.stringify(meta)) <= METADATA_MAX_BYTES, {
    message: `at most ${METADATA_MAX_BYTES} bytes as JSON`,
  })
  .describe(
    `The document's metadata: up to ${METADATA_MAX_KEYS} keys; values are strings, numbers, booleans or lists of strings; ${METADATA_MAX_BYTES} bytes in all.`,
  );

/**
 * A change to a document's metadata (PATCH): each key set to its value, or removed with null.
 * The result must stay within the same bounds.
 */
export const metadataPatchSchema = z
  .record(z.string().regex(METADATA_KEY), value.nullable())
  .refine((patch) => Object.keys(patch).length <= 2 * METADATA_MAX_KEYS, { message: 'too many keys' });

export type MetadataPatch = z.infer<typeof metadataPatchSchema>;

export function applyMetadataPatch(current: DocumentMetadata, patch: MetadataPatch): DocumentMetadata {
  const next: DocumentMetadata = { ...current };
  for (const [key, v] of Object.entries(patch)) {
    if (v === null) delete next[key];
    else next[key] = v;
  }
  return next;
}

/** The first problem of a metadata value, as one line; null when it is valid. */
export function metadataProblem(meta: unknown): string | null {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return 'metadata: an object of keys and values';
  const badKey = Object.keys(meta).find((key) => !METADATA_KEY.test(key));
  if (badKey !== undefined)
    return `${badKey.slice(0, 80)}: a key of letters, digits, _ - . starting with a letter, at most 64`;
  const parsed = documentMetadataSchema.safeParse(meta);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return issue ? `${issue.path.join('.') || 'metadata'}: ${issue.message}` : 'not valid metadata';
}

/**
 * `key=value` pairs as the CLI takes them (`--meta team=search --meta year=2026`): a value that
 * reads as a number or a boolean is one, a repeated key makes a list of strings.
 */
export function metadataOfPairs(pairs: string[]): DocumentMetadata {
  const meta: DocumentMetadata = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--meta ${pair}: expected key=value`);
    const key = pair.slice(0, at);
    const raw = pair.slice(at + 1);
    const parsed: MetadataValue =
      raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    const before = meta[key];
    if (before === undefined) meta[key] = parsed;
    else meta[key] = [...(Array.isArray(before) ? before : [String(before)]), raw];
  }
  return meta;
}

import { z } from 'zod';
import { METADATA_KEY } from './documentMetadata';

/**
 * The filter language of search (docs/search.md, "Filters"): conditions on a document's metadata
 * (`meta.<key>`) and its system fields, combined with and / or / not. Every store applies it
 * inside its own query (stores/postgresDocumentFilter.ts, openSearchFilter.ts, qdrantFilter.ts),
 * never to a fixed top-k afterwards.
 *
 * A condition names one field and one test:
 * - `eq`: the value (a string, number or boolean; a list-valued key matches when any item does);
 * - `in`: any of the values;
 * - `range`: `gt`, `gte`, `lt`, `lte` bounds, all numbers or all ISO 8601 UTC dates;
 * - `exists`: whether the document has the field at all.
 */

/** The system fields: kept by sluice for every document, filterable beside the metadata. */
export const SYSTEM_FIELDS = {
  documentId: 'keyword',
  fileName: 'keyword',
  fileType: 'keyword',
  language: 'keyword',
  pageCount: 'number',
  source: 'keyword',
  createdAt: 'date',
  updatedAt: 'date',
} as const;

export type SystemField = keyof typeof SYSTEM_FIELDS;

/** At most this many conditions and combinators in a filter, this deep, and this many values in all. */
export const FILTER_MAX_NODES = 64;
export const FILTER_MAX_DEPTH = 6;
export const FILTER_MAX_VALUES = 10_000;

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z)?$/;

const scalar = z.union([z.string().max(512), z.number().finite(), z.boolean()]);
export type FilterScalar = z.infer<typeof scalar>;

const bound = z.union([
  z.number().finite(),
  z.string().regex(ISO_DATE, 'an ISO 8601 UTC date, like 2026-12-07T10:00:00Z'),
]);
export type RangeBound = z.infer<typeof bound>;

const field = z
  .string()
  .refine((name) => name in SYSTEM_FIELDS || (name.startsWith('meta.') && METADATA_KEY.test(name.slice(5))), {
    message: `a system field (${Object.keys(SYSTEM_FIELDS).join(', ')}) or meta.<key>`,
  });

const range = z
  .strictObject({ gt: bound.optional(), gte: bound.optional(), lt: bound.optional(), lte: bound.optional() })
  .refine((r) => Object.keys(r).length > 0, { message: 'a range needs a bound' })
  .refine((r) => new Set(Object.values(r).map((b) => typeof b)).size === 1, {
    message: 'bounds of one range are all numbers or all dates',
  });

export type FilterCondition =
  | { field: string; eq: FilterScalar }
  | { field: string; in: FilterScalar[] }
  | { field: string; range: { gt?: RangeBound; gte?: RangeBound; lt?: RangeBound; lte?: RangeBound } }
  | { field: string; exists: boolean };

export type DocumentFilter =
  FilterCondition | { and: DocumentFilter[] } | { or: DocumentFilter[] } | { not: DocumentFilter };

const condition = z.union([
  z.strictObject({ field, eq: scalar }),
  z.strictObject({ field, in: z.array(scalar).min(1).max(FILTER_MAX_VALUES) }),
  z.strictObject({ field, range }),
  z.strictObject({ field, exists: z.boolean() }),
]);

const node: z.ZodType<DocumentFilter> = z.lazy(() =>
  z.union([
    condition,
    z.strictObject({ and: z.array(node).min(1) }),
    z.strictObject({ or: z.array(node).min(1) }),
    z.strictObject({ not: node }),
  ]),
);

/** A condition's test that the field's type cannot take; null when it fits. */
function typeProblem(c: FilterCondition): string | null {
  const kind = (SYSTEM_FIELDS as Record<string, string>)[c.field];
  if (!kind) return null;
  const values = 'eq' in c ? [c.eq] : 'in' in c ? c.in : 'range' in c ? Object.values(c.range) : [];
  if (c.field === 'documentId' && 'range' in c) return 'documentId takes eq, in or exists';
  if (kind === 'number' && values.some((v) => typeof v !== 'number')) return `${c.field} takes numbers`;
  if (kind === 'date' && values.some((v) => typeof v !== 'string' || !ISO_DATE.test(v)))
    return `${c.field} takes ISO 8601 UTC dates`;
  if (kind === 'keyword' && values.some((v) => typeof v !== 'string')) return `${c.field} takes strings`;
  return null;
}

/** Walks the filter: counts nodes and values, checks depth and each condition's types. */
function shapeProblem(filter: DocumentFilter): string | null {
  let nodes = 0;
  let values = 0;
  const visit = (f: DocumentFilter, depth: number): string | null => {
    nodes += 1;
    if (depth > FILTER_MAX_DEPTH) return `nested deeper than ${FILTER_MAX_DEPTH}`;
    if (nodes > FILTER_MAX_NODES) return `more than ${FILTER_MAX_NODES} conditions and combinators`;
    if ('and' in f || 'or' in f) {
      for (const child of 'and' in f ? f.and : f.or) {
        const problem = visit(child, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    if ('not' in f) return visit(f.not, depth + 1);
    values += 'in' in f ? f.in.length : 1;
    if (values > FILTER_MAX_VALUES) return `more than ${FILTER_MAX_VALUES} values`;
    return typeProblem(f);
  };
  return visit(filter, 1);
}

export class FilterInvalid extends Error {
  override readonly name = 'FilterInvalid';
}

/** The filter as given (JSON), checked; throws FilterInvalid with the first problem. */
export function parseDocumentFilter(value: unknown): DocumentFilter {
  const parsed = node.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FilterInvalid(
      `filter${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'not valid'}`,
    );
  }
  const problem = shapeProblem(parsed.data);
  if (problem) throw new FilterInvalid(`filter: ${problem}`);
  return parsed.data;
}

/** The zod schema of the filter, for the API's request schema (validated again by parseDocumentFilter). */
export const documentFilterSchema = node;

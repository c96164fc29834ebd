import { sql, type RawBuilder } from 'kysely';
import type { DocumentFilter, FilterCondition, FilterScalar, RangeBound, SystemField } from '../contracts/searchFilter';
import type { SearchScope } from './ports';
import { searchedDatasets } from './searchScope';

/** The documents column of each system field. */
const COLUMNS: Record<SystemField, string> = {
  documentId: 'id',
  fileName: 'file_name',
  fileType: 'file_type',
  language: 'language',
  pageCount: 'page_count',
  source: 'source',
  createdAt: 'created_at',
  updatedAt: 'metadata_updated_at',
};

const OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * A metadata key's values as a set of jsonb elements: a list's items, or the one value. Ranges
 * compare numbers as numbers and strings byte by byte (COLLATE "C", as OpenSearch compares
 * keywords), so ISO dates compare as dates.
 */
function metaCondition(key: string, c: FilterCondition): RawBuilder<boolean> {
  const value = sql`d.metadata -> ${key}`;
  if ('exists' in c) return c.exists ? sql<boolean>`(d.metadata ? ${key})` : sql<boolean>`NOT (d.metadata ? ${key})`;
  // jsonb containment: a scalar contains an equal scalar, a list contains each of its items.
  if ('eq' in c) return sql<boolean>`coalesce(${value} @> ${JSON.stringify(c.eq)}::jsonb, false)`;
  if ('in' in c) {
    const values = c.in.map((v) => JSON.stringify(v));
    return sql<boolean>`coalesce(${value} @> ANY(${values}::jsonb[]), false)`;
  }
  const numeric = typeof Object.values(c.range)[0] === 'number';
  const element = numeric ? sql`(e #>> '{}')::numeric` : sql`(e #>> '{}') COLLATE "C"`;
  const bounds = (Object.entries(c.range) as [keyof typeof OPERATORS, RangeBound][]).map(
    ([op, b]) =>
      sql`${element} ${sql.raw(OPERATORS[op])} ${numeric ? sql`${b}::numeric` : sql`${b}::text COLLATE "C"`}`,
  );
  return sql<boolean>`EXISTS (
    SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(${value}) WHEN 'array' THEN ${value}
                                            ELSE jsonb_build_array(${value}) END) AS e
     WHERE jsonb_typeof(e) = ${numeric ? 'number' : 'string'} AND ${sql.join(bounds, sql` AND `)})`;
}

function systemCondition(field: SystemField, c: FilterCondition): RawBuilder<boolean> {
  const column = sql.ref(`d.${COLUMNS[field]}`);
  const typed = (v: FilterScalar | RangeBound) =>
    field === 'pageCount'
      ? sql`${v}::integer`
      : field === 'createdAt' || field === 'updatedAt'
        ? sql`${v}::timestamptz`
        : sql`${v}::text COLLATE "C"`;
  const compared =
    field === 'pageCount' || field === 'createdAt' || field === 'updatedAt' ? column : sql`${column} COLLATE "C"`;
  if ('exists' in c) return c.exists ? sql<boolean>`${column} IS NOT NULL` : sql<boolean>`${column} IS NULL`;
  if ('eq' in c) return sql<boolean>`coalesce(${compared} = ${typed(c.eq)}, false)`;
  if ('in' in c) return sql<boolean>`coalesce(${compared} IN (${sql.join(c.in.map(typed))}), false)`;
  const bounds = (Object.entries(c.range) as [keyof typeof OPERATORS, RangeBound][]).map(
    ([op, b]) => sql`${compared} ${sql.raw(OPERATORS[op])} ${typed(b)}`,
  );
  return sql<boolean>`coalesce(${sql.join(bounds, sql` AND `)}, false)`;
}

/** The filter as a condition on a row `d` of documents. */
export function documentCondition(filter: DocumentFilter): RawBuilder<boolean> {
  if ('and' in filter) return sql<boolean>`(${sql.join(filter.and.map(documentCondition), sql` AND `)})`;
  if ('or' in filter) return sql<boolean>`(${sql.join(filter.or.map(documentCondition), sql` OR `)})`;
  if ('not' in filter) return sql<boolean>`NOT ${documentCondition(filter.not)}`;
  return filter.field.startsWith('meta.')
    ? metaCondition(filter.field.slice(5), filter)
    : systemCondition(filter.field as SystemField, filter);
}

/**
 * The tenant condition of a search list's query on a store table: the user, the searched datasets,
 * and, with a filter, the documents that pass it (a semi-join on documents, which the stores'
 * rows reference by document_id).
 */
export function searchCondition(scope: SearchScope, alias?: string): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  const datasets = searchedDatasets(scope);
  const tenant =
    datasets.length === 1
      ? sql<boolean>`${col('user_id')} = ${scope.userId} AND ${col('dataset_id')} = ${datasets[0]}`
      : sql<boolean>`${col('user_id')} = ${scope.userId} AND ${col('dataset_id')} = ANY(${datasets}::text[])`;
  if (!scope.filter) return tenant;
  return sql<boolean>`${tenant} AND ${col('document_id')} IN (
    SELECT d.id FROM documents d
     WHERE d.user_id = ${scope.userId} AND d.dataset_id = ANY(${datasets}::text[])
       AND ${documentCondition(scope.filter)})`;
}

/** The ids of the scope's documents that pass its filter, and how many documents the datasets hold. */
export function filteredDocumentsQuery(scope: SearchScope & { filter: DocumentFilter }): RawBuilder<{
  matching: string[];
  total: number;
}> {
  return sql`SELECT coalesce(array_agg(d.id) FILTER (WHERE ${documentCondition(scope.filter)}), '{}') AS matching,
                    count(*)::int AS total
               FROM documents d
              WHERE d.user_id = ${scope.userId} AND d.dataset_id = ANY(${searchedDatasets(scope)}::text[])`;
}

import type { Schemas } from '@qdrant/js-client-rest';
import type { DocumentFieldValues } from '../contracts/documentFields';
import { ISO_DATE, type DocumentFilter, type FilterCondition } from '../contracts/searchFilter';
import { encodedFields, encodedTerm } from './fieldEncoding';
import type { SearchScope } from './ports';
import { matchKeyword } from './qdrantSupport';
import { searchedDatasets } from './searchScope';

type Condition = Schemas['Condition'];

/**
 * A field name as a payload key: hex, because metadata keys may hold the dots and dashes that a
 * Qdrant key path would read as nesting.
 */
const payloadKey = (field: string): string => `f${Buffer.from(field, 'utf8').toString('hex')}`;

const normalizedDate = (field: string, value: string): string =>
  field === 'createdAt' || field === 'updatedAt' ? new Date(value).toISOString() : value;

/**
 * The payload that carries a document's fields on each of its points: the encoded terms
 * (stores/fieldEncoding.ts) for equality, the field names for `exists`, numbers and ISO dates by
 * field for ranges (Qdrant ranges only over numbers and datetimes), and the version of the copy.
 */
export function fieldsPayload(values: DocumentFieldValues): Record<string, unknown> {
  const numbers: Record<string, number[]> = {};
  const dates: Record<string, string[]> = {};
  const keys: string[] = [];
  const add = (field: string, value: string | number | boolean) => {
    if (typeof value === 'number') (numbers[payloadKey(field)] ??= []).push(value);
    else if (typeof value === 'string' && ISO_DATE.test(value)) (dates[payloadKey(field)] ??= []).push(value);
  };
  for (const [key, value] of Object.entries(values.metadata)) {
    keys.push(`meta.${key}`);
    for (const item of Array.isArray(value) ? value : [value]) add(`meta.${key}`, item);
  }
  for (const [field, value] of Object.entries(values.system)) {
    if (value === null) continue;
    keys.push(field);
    add(field, value);
  }
  return { fields: encodedFields(values), field_keys: keys, numbers, dates, fields_version: values.version };
}

function conditionOf(c: FilterCondition): Condition {
  if (c.field === 'documentId' && ('eq' in c || 'in' in c)) {
    return 'eq' in c
      ? matchKeyword('document_id', String(c.eq))
      : { key: 'document_id', match: { any: c.in.map(String) } };
  }
  if ('exists' in c) {
    const has = matchKeyword('field_keys', c.field);
    return c.exists ? has : { must_not: [has] };
  }
  const date = (v: string | number | boolean) => (typeof v === 'string' ? normalizedDate(c.field, v) : v);
  if ('eq' in c) return matchKeyword('fields', encodedTerm(c.field, date(c.eq)));
  if ('in' in c) return { key: 'fields', match: { any: c.in.map((v) => encodedTerm(c.field, date(v))) } };
  const numeric = typeof Object.values(c.range)[0] === 'number';
  if (numeric) return { key: `numbers.${payloadKey(c.field)}`, range: c.range as Schemas['Range'] };
  const bounds = Object.fromEntries(Object.entries(c.range).map(([op, b]) => [op, normalizedDate(c.field, String(b))]));
  return { key: `dates.${payloadKey(c.field)}`, range: bounds as Schemas['DatetimeRange'] };
}

/** The filter as a Qdrant condition over the fields payload. */
export function qdrantFilterCondition(filter: DocumentFilter): Condition {
  if ('and' in filter) return { must: filter.and.map(qdrantFilterCondition) };
  if ('or' in filter) return { should: filter.or.map(qdrantFilterCondition) };
  if ('not' in filter) return { must_not: [qdrantFilterCondition(filter.not)] };
  return conditionOf(filter);
}

/** Every search's filter: the user, the searched datasets, the document filter, and `more`. */
export function searchFilter(scope: SearchScope, ...more: Condition[]): Schemas['Filter'] {
  const datasets = searchedDatasets(scope);
  return {
    must: [
      matchKeyword('user_id', scope.userId),
      datasets.length === 1
        ? matchKeyword('dataset_id', datasets[0] as string)
        : { key: 'dataset_id', match: { any: datasets } },
      ...(scope.filter ? [qdrantFilterCondition(scope.filter)] : []),
      ...more,
    ],
  };
}

import type { DocumentFieldValues } from '../../contracts/documentFields';
import type { DocumentFilter, FilterScalar, RangeBound } from '../../contracts/searchFilter';

/**
 * The filter language's meaning, written out plainly over a document's fields: what every store's
 * pushed-down filter must agree with (test/integration/searchFilters.test.ts).
 */
function valuesOf(fields: DocumentFieldValues, field: string): FilterScalar[] | null {
  const raw = field.startsWith('meta.')
    ? fields.metadata[field.slice(5)]
    : fields.system[field as keyof DocumentFieldValues['system']];
  if (raw === undefined || raw === null) return null;
  return Array.isArray(raw) ? raw : [raw];
}

const same = (a: FilterScalar, b: FilterScalar, field: string): boolean => {
  if (typeof a !== typeof b) return false;
  if ((field === 'createdAt' || field === 'updatedAt') && typeof a === 'string' && typeof b === 'string')
    return Date.parse(a) === Date.parse(b);
  return a === b;
};

function inRange(value: FilterScalar, range: Record<string, RangeBound>, field: string): boolean {
  const first = Object.values(range)[0];
  if (typeof value !== typeof first) return false;
  const dated = field === 'createdAt' || field === 'updatedAt';
  const key = (v: FilterScalar) => (dated ? Date.parse(String(v)) : v);
  const v = key(value);
  return Object.entries(range).every(([op, bound]) => {
    const b = key(bound);
    return op === 'gt' ? v > b : op === 'gte' ? v >= b : op === 'lt' ? v < b : v <= b;
  });
}

export function passesFilter(fields: DocumentFieldValues, filter: DocumentFilter): boolean {
  if ('and' in filter) return filter.and.every((f) => passesFilter(fields, f));
  if ('or' in filter) return filter.or.some((f) => passesFilter(fields, f));
  if ('not' in filter) return !passesFilter(fields, filter.not);
  const values = valuesOf(fields, filter.field);
  if ('exists' in filter) return (values !== null) === filter.exists;
  if (values === null) return false;
  if ('eq' in filter) return values.some((v) => same(v, filter.eq, filter.field));
  if ('in' in filter) return values.some((v) => filter.in.some((w) => same(v, w, filter.field)));
  return values.some((v) => inRange(v, filter.range, filter.field));
}

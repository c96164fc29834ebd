import type { DocumentFilter, FilterCondition } from '../contracts/searchFilter';
import { encodedRange, encodedTerm, fieldPrefix } from './fieldEncoding';
import type { SearchScope } from './ports';
import { searchedDatasets } from './searchScope';

type Clause = Record<string, unknown>;

/** createdAt and updatedAt are kept as toISOString() writes them; a bound is written the same way. */
function normalized<T>(field: string, value: T): T {
  return (field === 'createdAt' || field === 'updatedAt') && typeof value === 'string'
    ? (new Date(value).toISOString() as T)
    : value;
}

function conditionClause(c: FilterCondition): Clause {
  if (c.field === 'documentId') {
    if ('eq' in c) return { term: { document_id: c.eq } };
    if ('in' in c) return { terms: { document_id: c.in } };
  }
  if ('exists' in c) {
    const has = { prefix: { fields: fieldPrefix(c.field) } };
    return c.exists ? has : { bool: { must_not: [has] } };
  }
  if ('eq' in c) return { term: { fields: encodedTerm(c.field, normalized(c.field, c.eq)) } };
  if ('in' in c) return { terms: { fields: c.in.map((v) => encodedTerm(c.field, normalized(c.field, v))) } };
  const range = Object.fromEntries(Object.entries(c.range).map(([op, b]) => [op, normalized(c.field, b)]));
  return { range: { fields: encodedRange(c.field, range) } };
}

/** The filter as an OpenSearch query over the entries' `fields` terms (stores/fieldEncoding.ts). */
export function openSearchFilterClause(filter: DocumentFilter): Clause {
  if ('and' in filter) return { bool: { filter: filter.and.map(openSearchFilterClause) } };
  if ('or' in filter) return { bool: { should: filter.or.map(openSearchFilterClause), minimum_should_match: 1 } };
  if ('not' in filter) return { bool: { must_not: [openSearchFilterClause(filter.not)] } };
  return conditionClause(filter);
}

/** The clauses every search of the scope filters by: the user, the datasets, the document filter. */
export function searchFilterClauses(scope: SearchScope): Clause[] {
  const datasets = searchedDatasets(scope);
  return [
    { term: { user_id: scope.userId } },
    datasets.length === 1 ? { term: { dataset_id: datasets[0] } } : { terms: { dataset_id: datasets } },
    ...(scope.filter ? [openSearchFilterClause(scope.filter)] : []),
  ];
}

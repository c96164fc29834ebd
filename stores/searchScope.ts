import type { SearchScope } from './ports';

/** Every dataset a search covers: its own, then the others it was asked to search with it. */
export function searchedDatasets(scope: SearchScope): string[] {
  return [scope.datasetId, ...(scope.moreDatasetIds ?? []).filter((id) => id !== scope.datasetId)];
}

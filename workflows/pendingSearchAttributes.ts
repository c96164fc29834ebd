import { upsertSearchAttributes, type SearchAttributes } from '@temporalio/workflow';

/** The typed key/value form upsertSearchAttributes takes (the workflow package does not export its name). */
type SearchAttributeUpdatePair = Exclude<Parameters<typeof upsertSearchAttributes>[0], SearchAttributes>[number];

/**
 * Search attribute changes gathered until the workflow is about to wait, then written as one
 * upsert. Each upsert is its own history event and visibility write on the server, and the
 * changes only become visible when the workflow task completes anyway, so writing them together
 * right before the workflow waits shows nothing later than one upsert per change would.
 */
export class PendingSearchAttributes {
  private readonly pending = new Map<string, SearchAttributeUpdatePair>();

  set(updates: SearchAttributeUpdatePair[]): void {
    for (const update of updates) this.pending.set(update.key.name, update);
  }

  flush(): void {
    if (this.pending.size === 0) return;
    upsertSearchAttributes([...this.pending.values()]);
    this.pending.clear();
  }
}

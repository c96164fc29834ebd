import type { KeywordEntry, KeywordIndex } from '../../stores/ports';

/**
 * What goes wrong on one bulkIndex call:
 * - `refuse`: the index writes every entry but the first `count`, and reports those as refused
 *   (what OpenSearch does with items its shards reject);
 * - `throw`: the call fails before anything is written (an unreachable server);
 * - `crash`: the entries are written, then the worker dies before it hears back: the call never
 *   returns, so the attempt runs nothing after it (no catch, no finally) until `releaseCrashed`.
 */
export type BulkFault = { kind: 'refuse'; count: number } | { kind: 'throw' } | { kind: 'crash' };

export interface FaultyKeywordIndex extends KeywordIndex {
  /** Every bulkIndex call so far, in order: the chunk ids it was asked to write. */
  readonly calls: string[][];
  /** Resolves when a `crash` fault has written its entries and the caller hangs. */
  readonly crashed: Promise<void>;
  /** Ends the hung call of a crashed attempt (with an error), so its timers stop. */
  releaseCrashed(): void;
}

/**
 * Wraps a real keyword index and injects `faults`, keyed by the 1-based number of the bulkIndex
 * call over the wrapper's life (so "call 2" is the second batch of the first attempt). `onBulk`
 * runs before each call, e.g. to advance a simulated clock.
 */
export function faultyKeywordIndex(
  real: KeywordIndex,
  faults: Map<number, BulkFault>,
  onBulk: () => void = () => undefined,
): FaultyKeywordIndex {
  const calls: string[][] = [];
  let signalCrashed: () => void = () => undefined;
  const crashed = new Promise<void>((resolve) => (signalCrashed = resolve));
  let release: (error: Error) => void = () => undefined;

  async function bulkIndex(scope: Parameters<KeywordIndex['bulkIndex']>[0], entries: KeywordEntry[]) {
    calls.push(entries.map((e) => e.chunkId));
    onBulk();
    const fault = faults.get(calls.length);
    if (fault?.kind === 'throw') throw new Error(`injected: bulk call ${calls.length} failed`);
    if (fault?.kind === 'refuse') {
      const refused = entries.slice(0, fault.count);
      const written = await real.bulkIndex(scope, entries.slice(fault.count));
      return { failedChunkIds: [...refused.map((e) => e.chunkId), ...written.failedChunkIds] };
    }
    const result = await real.bulkIndex(scope, entries);
    if (fault?.kind === 'crash') {
      signalCrashed();
      return new Promise<never>((_, reject) => (release = reject));
    }
    return result;
  }

  return {
    calls,
    crashed,
    releaseCrashed: () => release(new Error('injected: the crashed attempt is abandoned')),
    ensureIndex: () => real.ensureIndex(),
    deleteDocument: (scope, documentId) => real.deleteDocument(scope, documentId),
    deleteDocumentExcept: (scope, documentId, keep) => real.deleteDocumentExcept(scope, documentId, keep),
    bulkIndex,
    search: (scope, tokens, limit) => real.search(scope, tokens, limit),
    setDocumentFields: (scope, documentId, fields) => real.setDocumentFields(scope, documentId, fields),
    countForDocument: (documentId) => real.countForDocument(documentId),
  };
}

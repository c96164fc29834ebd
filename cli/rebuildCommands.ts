import type { Command } from 'commander';
import { config, userOf, withAdapters, withClient } from './session';

interface RebuildOptions {
  dataset?: string;
  user?: string;
  strategy?: string;
  childTokens?: string;
  overlapTokens?: string;
  parentTokens?: string;
  wait: boolean;
}

const int = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** `sluice rebuild`: re-chunk a document or a dataset from its stored markdown under a new plan. */
export function addRebuildCommands(program: Command): void {
  program
    .command('rebuild')
    .argument('[documentId]', 'the document to rebuild (or --dataset)')
    .option('-d, --dataset <name>', 'rebuild every document of this dataset')
    .option('-u, --user <id>', 'user the documents belong to (default: SLUICE_USER_ID)')
    .option('--strategy <name>', 'chunking strategy: general, qa, table, page or one')
    .option('--child-tokens <n>', 'upper bound of a child chunk, in tokens')
    .option('--overlap-tokens <n>', 'tokens each child repeats from the one before')
    .option('--parent-tokens <n>', 'upper bound of a parent chunk (default: the whole section)')
    .option('--no-wait', 'start the runs and return')
    .description(
      'rebuild the index from the stored markdown under a new plan (no download, no parse); search keeps the old chunks until the new ones are complete',
    )
    .action(async (documentId: string | undefined, opts: RebuildOptions) => {
      if ((documentId === undefined) === (opts.dataset === undefined))
        throw new Error('name a document id or --dataset, not both');
      const [{ planOf, rebuildDocument, startDatasetRebuild }, { waitForDocuments }] = await Promise.all([
        import('../client/rebuild.js'),
        import('./waitForDocuments.js'),
      ]);
      const plan = planOf(
        {
          strategy: opts.strategy,
          childTokens: int(opts.childTokens),
          overlapTokens: int(opts.overlapTokens),
          parentTokens: int(opts.parentTokens),
        },
        'rebuild requested from the CLI',
      );
      const userId = await userOf(opts);
      if (opts.dataset !== undefined) {
        const datasetId = opts.dataset;
        await withClient(await config(), async (client) => {
          const cfg = await config();
          const run = await startDatasetRebuild({ client, config: cfg }, { userId, datasetId }, plan);
          console.log(`${run.alreadyRunning ? 'joined the running' : 'started'} dataset rebuild ${run.workflowId}`);
          if (!opts.wait) return;
          const counts = await run.result();
          console.log(
            `rebuilt ${counts.succeeded} documents, ${counts.failed} failed, ${counts.skipped} skipped (${counts.started} started)`,
          );
          if (counts.failed > 0) process.exitCode = 1;
        });
        return;
      }
      await withAdapters((adapters, cfg) =>
        withClient(cfg, async (client) => {
          const started = await rebuildDocument(
            { client, db: adapters.db, config: cfg },
            { userId },
            documentId!,
            plan,
          );
          console.log(`rebuilding ${started.documentId}: task ${started.taskId} takes over ${started.rebuildOfTaskId}`);
          if (!opts.wait) return;
          const outcome = await waitForDocuments(client, [
            { documentId: started.documentId, label: started.documentId },
          ]);
          if ([...outcome.values()].some((p) => p.status !== 'SUCCESS')) process.exitCode = 1;
          const { countChunks } = await import('../db/repositories/chunks.js');
          const counts = await countChunks(adapters.db, started.documentId);
          console.log(
            `${counts.active} chunks served: ${counts.reused} vectors reused, ${counts.active - counts.reused} embedded`,
          );
        }),
      );
    });
}

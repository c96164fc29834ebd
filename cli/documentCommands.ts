import type { Command } from 'commander';
import type { SluiceConfig } from '../config/config';
import { config, userHelp, userOf, withAdapters, withClient } from './session';
import { chunkingChoiceOf, withChunkingChoiceOptions, type ChunkingChoiceOptions } from './chunkingChoiceOptions';
import { padToWidth } from './displayWidth';
import type { SearchOptions } from './searchOptions';
import { metadataOfPairs, metadataProblem, type DocumentMetadata } from '../contracts/documentMetadata';

/** The metadata the options make, or an error that says which bound it breaks. */
function checkedMetadata(meta: DocumentMetadata): DocumentMetadata {
  const problem = metadataProblem(meta);
  if (problem) throw new Error(`--meta: ${problem}`);
  return meta;
}

/** `ingest --replace`: one file in place of a document's content. */
async function replaceOne(documentId: string, files: string[], opts: { dataset: string; user?: string }) {
  if (files.length !== 1) {
    console.error('--replace takes exactly one file');
    return false;
  }
  const { replaceFile } = await import('./commands/replaceFile.js');
  const userId = await userOf(opts);
  return withAdapters((adapters, cfg) =>
    withClient(cfg, (client) =>
      replaceFile(cfg, adapters, client, { userId, datasetId: opts.dataset }, documentId, files[0] as string),
    ),
  );
}

/** The document commands: run the stack and a worker, ingest, inspect, search, retry, delete, re-embed. */
export function addDocumentCommands(program: Command): void {
  program
    .command('up')
    .description('start the local stack (the services the configured adapters use) and run a worker in the foreground')
    .action(async () => {
      (await import('./stack.js')).startLocalStack(await config());
      await (await import('../worker/main.js')).runWorker();
    });

  withChunkingChoiceOptions(
    program
      .command('ingest')
      .argument('<files...>', 'files to ingest')
      .requiredOption('-d, --dataset <name>', 'dataset to ingest into')
      .option(
        '--meta <key=value>',
        "the documents' metadata, repeatable: a number or true/false is one, a repeated key makes a list",
        (pair: string, pairs: string[]) => [...pairs, pair],
        [] as string[],
      )
      .option('--replace <documentId>', "replace this document's content with the one file given, keeping its id")
      .option(...userHelp),
  )
    .description('store each file, start one workflow per file and show live progress')
    .action(
      async (
        files: string[],
        opts: { dataset: string; user?: string; meta: string[]; replace?: string } & ChunkingChoiceOptions,
      ) => {
        if (opts.replace !== undefined) {
          process.exitCode = (await replaceOne(opts.replace, files, opts)) ? 0 : 1;
          return;
        }
        // The options alone first, so a wrong one is refused before anything connects.
        let metadata: DocumentMetadata | undefined;
        try {
          chunkingChoiceOf(opts, (await config()).chunking);
          metadata = opts.meta.length > 0 ? checkedMetadata(metadataOfPairs(opts.meta)) : undefined;
        } catch (error) {
          console.error((error as Error).message);
          process.exitCode = 1;
          return;
        }
        const [{ formatIngested, ingestFiles }, { datasetChunkingOf }] = await Promise.all([
          import('./commands/ingestFiles.js'),
          import('../db/repositories/datasetSettings.js'),
        ]);
        const userId = await userOf(opts);
        const ok = await withAdapters(async (adapters, cfg) => {
          let chunkingChoice;
          try {
            // Then merged with the dataset's own sizes, which the plan lays the choice over.
            const dataset = await datasetChunkingOf(adapters.db, { userId, datasetId: opts.dataset });
            chunkingChoice = chunkingChoiceOf(opts, cfg.chunking, dataset);
          } catch (error) {
            console.error((error as Error).message);
            return false;
          }
          return withClient(cfg, async (client) => {
            const scope = {
              userId,
              datasetId: opts.dataset,
              ...(chunkingChoice ? { chunkingChoice } : {}),
              ...(metadata ? { metadata } : {}),
            };
            const results = await ingestFiles(cfg, adapters, client, files, scope);
            for (const r of results) console.log(formatIngested(r));
            return results.every((r) => r.status === 'SUCCESS');
          });
        });
        if (!ok) process.exitCode = 1;
      },
    );

  program
    .command('status')
    .argument('<documentId>')
    .description(
      "a document's per-stage status, timings, chunk counts and failure; what its run waits for, and its progress",
    )
    .action(async (documentId: string) => {
      // Reads rows only: a database connection, not the whole set of adapters (stores, embedders).
      const cfg = await config();
      const [{ createDb }, { migrateToLatest }, { documentStatus, formatStatus }, { workflowUrl }] = await Promise.all([
        import('../db/connection.js'),
        import('../db/migrate.js'),
        import('./commands/documentStatus.js'),
        import('../client/workflowUrl.js'),
      ]);
      const db = createDb(cfg.database.url, 1);
      try {
        await migrateToLatest(db);
        const report = await documentStatus(db, documentId);
        if (!report) {
          console.error(`no document ${documentId}`);
          process.exitCode = 1;
          return;
        }
        console.log(formatStatus(report, workflowUrl(cfg, documentId)));
        if (report.pipelineStatus === 'PROCESSING')
          console.log(await runActivityLines(cfg, documentId, report.chunks.active));
      } finally {
        await db.destroy();
      }
    });

  program
    .command('search')
    .argument('<query>')
    .requiredOption('-d, --dataset <name>', 'dataset to search')
    .option('-u, --user <id>', 'user whose documents to search (default: SLUICE_USER_ID)')
    .option('-k, --limit <n>', 'hits to show', '5')
    .option('--filter <json>', 'only documents that pass this filter (docs/search.md, "Filters")')
    .option('--also <datasets>', 'more datasets to search with it, comma-separated')
    .option('--page <n>', 'the page of hits to show (1 = best)', '1')
    .option('--min-score <score>', "leave out hits scored below this (the reranker's 0..1 score where it scored them)")
    .option('--show <parts>', 'what each hit shows beyond its text, comma-separated: parent, highlights, metadata')
    .description(
      "hybrid search: dense + sparse + keyword, fused by reciprocal rank, then the user's reranker where they have one",
    )
    .action(async (query: string, opts: SearchOptions) => {
      const [{ searchSettingsFor }, { searchDataset }, { formatSearch }, { searchRequestOf }] = await Promise.all([
        import('../search/hybridSearch.js'),
        import('../search/searchDataset.js'),
        import('./commands/formatHits.js'),
        import('./searchOptions.js'),
      ]);
      let request;
      try {
        request = searchRequestOf(query, opts);
      } catch (error) {
        console.error((error as Error).message);
        process.exitCode = 1;
        return;
      }
      const userId = await userOf(opts);
      await withAdapters(async (adapters) => {
        const scope = { userId, datasetId: opts.dataset, ...request.scope };
        const settings = await searchSettingsFor(adapters.db, { userId, datasetId: opts.dataset });
        const response = await searchDataset(adapters, scope, request.request, settings);
        console.log(formatSearch(response, Number(opts.page), request.request.limit));
      });
    });

  program
    .command('retry')
    .argument('<documentId>')
    .description('retry a failed document from the first stage that did not succeed')
    .action(async (documentId: string) => {
      const { retryDocument, RetryRefusedError } = await import('../client/documentAdmin.js');
      await withAdapters((adapters, cfg) =>
        withClient(cfg, async (client) => {
          try {
            const { taskId, via } = await retryDocument({ client, db: adapters.db, config: cfg }, documentId);
            console.log(`retry accepted: new task ${taskId} (via ${via})`);
          } catch (error) {
            if (!(error instanceof RetryRefusedError)) throw error;
            console.error(error.message);
            process.exitCode = 1;
          }
        }),
      );
    });

  program
    .command('delete')
    .argument('<documentId>')
    .description('durably delete a document: vectors, keyword entries, objects and rows')
    .action(async (documentId: string) => {
      const { deleteDocument } = await import('../client/documentAdmin.js');
      const { findDocument } = await import('../db/repositories/documents.js');
      await withAdapters((adapters, cfg) =>
        withClient(cfg, async (client) => {
          // The operator deletes on the owner's behalf: the deletion names the owner the row records.
          const doc = await findDocument(adapters.db, documentId);
          if (!doc) {
            console.log(`${documentId} did not exist`);
            return;
          }
          const result = await deleteDocument({ client, config: cfg }, { documentId, userId: doc.user_id });
          console.log(
            result.existed ? `deleted ${documentId} (${result.objectsDeleted} objects)` : `${documentId} did not exist`,
          );
        }),
      );
    });

  program
    .command('failed')
    .option('-d, --dataset <name>', 'only this dataset')
    .description('failed documents with their stage and failure code (a Temporal visibility query)')
    .action(async (opts: { dataset?: string }) => {
      const { listFailedDocuments } = await import('../client/documentAdmin.js');
      await withClient(await config(), async (client) => {
        const failed = await listFailedDocuments(client, opts.dataset);
        if (failed.length === 0) console.log('no failed documents');
        for (const f of failed)
          console.log(
            `${f.documentId}  ${padToWidth(f.datasetId, 16)} ${f.stage.padEnd(20)} ${f.failureCode.padEnd(24)} ${f.sourceId || 'upload'}`,
          );
      });
    });

  program
    .command('reembed')
    .requiredOption('-d, --dataset <name>', 'dataset whose vectors to bring to the current model')
    .option('-u, --user <id>', 'user the dataset belongs to (default: SLUICE_USER_ID)')
    .description('re-run VECTORIZING and SPARSE_VECTORIZING for documents embedded by another model')
    .action(async (opts: { dataset: string; user?: string }) => {
      const [{ reembedDataset }, { waitForDocuments }] = await Promise.all([
        import('../client/reembed.js'),
        import('./waitForDocuments.js'),
      ]);
      const userId = await userOf(opts);
      await withAdapters((adapters, cfg) =>
        withClient(cfg, async (client) => {
          const report = await reembedDataset(
            { client, db: adapters.db, config: cfg, embedders: adapters.embedders },
            { userId, datasetId: opts.dataset },
          );
          console.log(
            `current model ${report.model} (${report.dimension} dimensions): ${report.started.length} documents re-embedding`,
          );
          for (const s of report.skipped) console.log(`skipped ${s.documentId}: ${s.reason}`);
          const outcome = await waitForDocuments(
            client,
            report.started.map((s) => ({ documentId: s.documentId, label: s.documentId })),
          );
          if ([...outcome.values()].some((p) => p.status !== 'SUCCESS')) process.exitCode = 1;
        }),
      );
    });

  program
    .command('demo')
    .description(
      'start the local stack (the services the configured adapters use) and a worker, ingest the sample documents and print search hits',
    )
    .action(async () => {
      (await import('./stack.js')).startLocalStack(await config());
      const [{ installRuntimeLogging }, { createSluiceWorker }, { runDemo }] = await Promise.all([
        import('../worker/runtimeLogging.js'),
        import('../worker/createWorker.js'),
        import('./commands/demo.js'),
      ]);
      // Worker state changes would drown the progress bars and hits.
      installRuntimeLogging('WARN');
      const ok = await withAdapters(async (adapters, cfg) => {
        const running = await createSluiceWorker(cfg, adapters);
        try {
          return await running.worker.runUntil(runDemo(cfg, adapters, running.client, cfg.defaultUserId));
        } finally {
          await running.close();
        }
      });
      if (!ok) process.exitCode = 1;
    });

  program
    .command('serve')
    .description('run the HTTP API and admin page (no worker: start one with `npm run worker`)')
    .action(async () => {
      await (await import('../api/serve.js')).runApiServer();
    });
}

/** The open run's pending activities (client/pendingStage.ts); a line saying so when Temporal cannot be asked. */
async function runActivityLines(cfg: SluiceConfig, documentId: string, chunks: number): Promise<string> {
  const { pendingStages, formatPendingStage, formatWaiting } = await import('../client/pendingStage.js');
  const { queryProgress } = await import('../client/ingestClient.js');
  try {
    const [pending, progress] = await withClient(cfg, (client) =>
      Promise.all([pendingStages(client, documentId), queryProgress(client, documentId).catch(() => null)]),
    );
    const lines =
      pending.length === 0 ? ['running   (between activities)'] : pending.map((p) => formatPendingStage(p, chunks));
    if (progress?.waiting) lines.unshift(formatWaiting(progress.waiting));
    return lines.join('\n');
  } catch (error) {
    return `running   (the Temporal server did not answer: ${error instanceof Error ? error.message : String(error)})`;
  }
}

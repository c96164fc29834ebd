import type { Client } from '@temporalio/client';
import { Command } from 'commander';
import type { SluiceConfig } from '../config/config';
import type { Adapters } from '../worker/adapters';
import type * as EmbeddingCommands from './commands/embedding';
import type { EmbeddingConfigDeps } from './embeddingConfigs';

// Every module beyond commander loads inside the action that needs it: `sluice --help` and
// `sluice status` stay well under a second instead of loading the worker, parsers and adapters.

let loadedConfig: SluiceConfig | undefined;
async function config(): Promise<SluiceConfig> {
  loadedConfig ??= (await import('../config/config.js')).loadConfig();
  return loadedConfig;
}

/** The user an option names, else the deployment's default user (SLUICE_USER_ID). */
async function userOf(opts: { user?: string }): Promise<string> {
  return opts.user ?? (await config()).defaultUserId;
}

async function withAdapters<T>(run: (adapters: Adapters, cfg: SluiceConfig) => Promise<T>): Promise<T> {
  const cfg = await config();
  const [{ createAdapters }, { migrateToLatest }] = await Promise.all([import('../worker/adapters.js'), import('../db/migrate.js')]);
  const adapters = createAdapters(cfg);
  try {
    await migrateToLatest(adapters.db);
    await adapters.ensureReady();
    return await run(adapters, cfg);
  } finally {
    await adapters.close();
  }
}

async function withClient<T>(cfg: SluiceConfig, run: (client: Client) => Promise<T>): Promise<T> {
  const { connectClient } = await import('./ingestClient.js');
  const client = await connectClient(cfg);
  try {
    return await run(client);
  } finally {
    await client.connection.close();
  }
}

const userHelp = ['-u, --user <id>', 'user the documents belong to (default: SLUICE_USER_ID)'] as const;

const program = new Command('sluice').description('durable document ingestion for RAG, on Temporal');

program
  .command('up')
  .description('start the local stack (Temporal dev server + Postgres) and run a worker in the foreground')
  .action(async () => {
    (await import('./stack.js')).startLocalStack();
    await (await import('../worker/main.js')).runWorker();
  });

program
  .command('ingest')
  .argument('<files...>', 'files to ingest')
  .requiredOption('-d, --dataset <name>', 'dataset to ingest into')
  .option(...userHelp)
  .description('store each file, start one workflow per file and show live progress')
  .action(async (files: string[], opts: { dataset: string; user?: string }) => {
    const { formatIngested, ingestFiles } = await import('./commands/ingestFiles.js');
    const userId = await userOf(opts);
    const ok = await withAdapters((adapters, cfg) =>
      withClient(cfg, async (client) => {
        const results = await ingestFiles(cfg, adapters, client, files, { userId, datasetId: opts.dataset });
        for (const r of results) console.log(formatIngested(r));
        return results.every((r) => r.status === 'SUCCESS');
      }),
    );
    if (!ok) process.exitCode = 1;
  });

program
  .command('status')
  .argument('<documentId>')
  .description("a document's per-stage status, timings, chunk counts and failure")
  .action(async (documentId: string) => {
    // Reads rows only: a database connection, not the whole set of adapters (stores, embedders).
    const cfg = await config();
    const [{ createDb }, { migrateToLatest }, { documentStatus, formatStatus }] = await Promise.all([
      import('../db/connection.js'),
      import('../db/migrate.js'),
      import('./commands/documentStatus.js'),
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
      console.log(formatStatus(report));
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
  .description('hybrid search: dense + sparse + keyword, fused by reciprocal rank')
  .action(async (query: string, opts: { dataset: string; user?: string; limit: string }) => {
    const [{ hybridSearch }, { formatHits }] = await Promise.all([import('../search/hybridSearch.js'), import('./commands/formatHits.js')]);
    const userId = await userOf(opts);
    await withAdapters(async (adapters) => {
      const hits = await hybridSearch(adapters, { userId, datasetId: opts.dataset }, query, Number(opts.limit));
      console.log(formatHits(hits));
    });
  });

program
  .command('retry')
  .argument('<documentId>')
  .description('retry a failed document from the first stage that did not succeed')
  .action(async (documentId: string) => {
    const { retryDocument, RetryRefusedError } = await import('./documentAdmin.js');
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
    const { deleteDocument } = await import('./documentAdmin.js');
    const cfg = await config();
    await withClient(cfg, async (client) => {
      const result = await deleteDocument({ client, config: cfg }, documentId);
      console.log(result.existed ? `deleted ${documentId} (${result.objectsDeleted} objects)` : `${documentId} did not exist`);
    });
  });

program
  .command('failed')
  .option('-d, --dataset <name>', 'only this dataset')
  .description('failed documents with their stage and failure code (a Temporal visibility query)')
  .action(async (opts: { dataset?: string }) => {
    const { listFailedDocuments } = await import('./documentAdmin.js');
    await withClient(await config(), async (client) => {
      const failed = await listFailedDocuments(client, opts.dataset);
      if (failed.length === 0) console.log('no failed documents');
      for (const f of failed) console.log(`${f.documentId}  ${f.datasetId.padEnd(16)} ${f.stage.padEnd(20)} ${f.failureCode}`);
    });
  });

program
  .command('reembed')
  .requiredOption('-d, --dataset <name>', 'dataset whose vectors to bring to the current model')
  .option('-u, --user <id>', 'user the dataset belongs to (default: SLUICE_USER_ID)')
  .description("re-run VECTORIZING and SPARSE_VECTORIZING for documents embedded by another model")
  .action(async (opts: { dataset: string; user?: string }) => {
    const [{ reembedDataset }, { waitForDocuments }] = await Promise.all([import('./reembed.js'), import('./waitForDocuments.js')]);
    const userId = await userOf(opts);
    await withAdapters((adapters, cfg) =>
      withClient(cfg, async (client) => {
        const report = await reembedDataset({ client, db: adapters.db, config: cfg, embedders: adapters.embedders }, { userId, datasetId: opts.dataset });
        console.log(`current model ${report.model} (${report.dimension} dimensions): ${report.started.length} documents re-embedding`);
        for (const s of report.skipped) console.log(`skipped ${s.documentId}: ${s.reason}`);
        const outcome = await waitForDocuments(client, report.started.map((s) => ({ documentId: s.documentId, label: s.documentId })));
        if ([...outcome.values()].some((p) => p.status !== 'SUCCESS')) process.exitCode = 1;
      }),
    );
  });

program
  .command('demo')
  .description('start the local stack and a worker, ingest the sample documents and print search hits')
  .action(async () => {
    (await import('./stack.js')).startLocalStack();
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
    await (await import('./http/serve.js')).runApiServer();
  });

const embedding = program.command('embedding').description("a user's embedding provider, or the deployment-wide default");
const targetHelp = ['-u, --user <id>', 'the user whose configuration it is (default: SLUICE_USER_ID)'] as const;
const defaultHelp = ['--default', 'the deployment-wide default, for users without a configuration of their own'] as const;
// The command module is loaded inside each action, so `sluice --help` does not load it.
async function runEmbedding(run: (commands: typeof EmbeddingCommands, deps: EmbeddingConfigDeps) => Promise<number>): Promise<void> {
  const commands = await import('./commands/embedding.js');
  process.exitCode = await commands.withConfigDatabase(await config(), (deps) => run(commands, deps));
}
embedding
  .command('set')
  .requiredOption('-m, --model <name>', 'the embedding model, e.g. text-embedding-3-small')
  .requiredOption('--dimension <n>', 'the length of its vectors')
  .option('--base-url <url>', 'an OpenAI-compatible endpoint (default https://api.openai.com/v1)')
  .option('--api-key-env <NAME>', 'read the API key from this environment variable')
  .option('--api-key-stdin', 'read the API key from standard input')
  .option(...targetHelp)
  .option(...defaultHelp)
  .description('store an embedding configuration (the API key sealed with SLUICE_SECRET_KEY; without a key option the stored key is kept)')
  .action(async (opts: { model: string; dimension: string; baseUrl?: string; apiKeyEnv?: string; apiKeyStdin?: boolean; user?: string; default?: boolean }) => {
    await runEmbedding((c, deps) => c.embeddingSet(deps, opts, c.processIo));
  });
embedding
  .command('show')
  .option(...targetHelp)
  .option(...defaultHelp)
  .description('the configuration that embeds the documents, with the API key masked')
  .action(async (opts: { user?: string; default?: boolean }) => {
    await runEmbedding((c, deps) => c.embeddingShow(deps, opts, c.processIo));
  });
embedding
  .command('test')
  .option(...targetHelp)
  .option(...defaultHelp)
  .description('embed one sentence through the configured provider and check the dimension')
  .action(async (opts: { user?: string; default?: boolean }) => {
    await runEmbedding((c, deps) => c.embeddingTest(deps, opts, c.processIo));
  });
embedding
  .command('delete')
  .option(...targetHelp)
  .option(...defaultHelp)
  .description('remove the configuration (and its sealed key)')
  .action(async (opts: { user?: string; default?: boolean }) => {
    await runEmbedding((c, deps) => c.embeddingDelete(deps, opts, c.processIo));
  });

const users = program.command('users').description('users of the HTTP API');
users
  .command('create')
  .argument('<userId>', 'the id documents are stored under')
  .option('-n, --name <displayName>', 'display name')
  .option('-l, --label <label>', 'label of the first API key')
  .description('create a user (if new) and an API key for it; the key is printed once')
  .action(async (userId: string, opts: { name?: string; label?: string }) => {
    const { createUserWithKey } = await import('./http/apiKeys.js');
    await withAdapters(async (adapters) => {
      const issued = await createUserWithKey(adapters.db, userId, { displayName: opts.name ?? null, label: opts.label ?? null });
      console.log(`user ${issued.userId}, key ${issued.keyId}`);
      console.log(`API key (shown once): ${issued.apiKey}`);
    });
  });

const keys = program.command('keys').description('API keys');
keys
  .command('create')
  .argument('<userId>')
  .option('-l, --label <label>', 'what the key is for')
  .description('create another API key for an existing user; the key is printed once')
  .action(async (userId: string, opts: { label?: string }) => {
    const [{ findUser }, { issueApiKey }] = await Promise.all([import('../db/repositories/apiKeys.js'), import('./http/apiKeys.js')]);
    await withAdapters(async (adapters) => {
      if (!(await findUser(adapters.db, userId))) {
        console.error(`no user ${userId}: create it with \`sluice users create ${userId}\``);
        process.exitCode = 1;
        return;
      }
      const issued = await issueApiKey(adapters.db, userId, opts.label ?? null);
      console.log(`key ${issued.keyId} for ${userId}`);
      console.log(`API key (shown once): ${issued.apiKey}`);
    });
  });
keys
  .command('list')
  .argument('<userId>')
  .description("a user's keys (ids and labels; secrets are never stored)")
  .action(async (userId: string) => {
    const { listApiKeys } = await import('../db/repositories/apiKeys.js');
    await withAdapters(async (adapters) => {
      for (const k of await listApiKeys(adapters.db, userId)) {
        console.log(`${k.id}  ${k.revoked_at ? 'revoked' : 'active '}  ${k.label ?? ''}`);
      }
    });
  });
keys
  .command('revoke')
  .argument('<keyId>')
  .description('revoke a key: requests with it are refused from now on')
  .action(async (keyId: string) => {
    const { revokeApiKey } = await import('../db/repositories/apiKeys.js');
    await withAdapters(async (adapters) => {
      const revoked = await revokeApiKey(adapters.db, keyId);
      console.log(revoked ? `revoked ${keyId}` : `no active key ${keyId}`);
      if (!revoked) process.exitCode = 1;
    });
  });

program.parseAsync().catch((error: unknown) => {
  console.error(`sluice: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

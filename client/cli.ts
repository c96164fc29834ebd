import { Command } from 'commander';
import { loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { hybridSearch } from '../search/hybridSearch';
import { createAdapters, type Adapters } from '../worker/adapters';
import { createSluiceWorker } from '../worker/createWorker';
import { runWorker } from '../worker/main';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { runDemo } from './commands/demo';
import { documentStatus, formatStatus } from './commands/documentStatus';
import { formatHits } from './commands/formatHits';
import { formatIngested, ingestFiles } from './commands/ingestFiles';
import { createUserWithKey, issueApiKey } from './http/apiKeys';
import { runApiServer } from './http/serve';
import { deleteDocument, listFailedDocuments, retryDocument, RetryRefusedError } from './documentAdmin';
import { connectClient } from './ingestClient';
import { reembedDataset } from './reembed';
import { findUser, listApiKeys, revokeApiKey } from '../db/repositories/apiKeys';
import { waitForDocuments } from './waitForDocuments';
import { startLocalStack } from './stack';
import type * as EmbeddingCommands from './commands/embedding';
import type { EmbeddingConfigDeps } from './embeddingConfigs';

const config = loadConfig();

async function withAdapters<T>(run: (adapters: Adapters) => Promise<T>): Promise<T> {
  const adapters = createAdapters(config);
  try {
    await migrateToLatest(adapters.db);
    await adapters.ensureReady();
    return await run(adapters);
  } finally {
    await adapters.close();
  }
}

const program = new Command('sluice').description('durable document ingestion for RAG, on Temporal');

program
  .command('up')
  .description('start the local stack (Temporal dev server + Postgres) and run a worker in the foreground')
  .action(async () => {
    startLocalStack();
    await runWorker();
  });

program
  .command('ingest')
  .argument('<files...>', 'files to ingest')
  .requiredOption('-d, --dataset <name>', 'dataset to ingest into')
  .option('-u, --user <id>', 'user the documents belong to', config.defaultUserId)
  .description('store each file, start one workflow per file and show live progress')
  .action(async (files: string[], opts: { dataset: string; user: string }) => {
    const ok = await withAdapters(async (adapters) => {
      const client = await connectClient(config);
      try {
        const results = await ingestFiles(config, adapters, client, files, { userId: opts.user, datasetId: opts.dataset });
        for (const r of results) console.log(formatIngested(r));
        return results.every((r) => r.status === 'SUCCESS');
      } finally {
        await client.connection.close();
      }
    });
    if (!ok) process.exitCode = 1;
  });

program
  .command('status')
  .argument('<documentId>')
  .description("a document's per-stage status, timings, chunk counts and failure")
  .action(async (documentId: string) => {
    await withAdapters(async (adapters) => {
      const report = await documentStatus(adapters.db, documentId);
      if (!report) {
        console.error(`no document ${documentId}`);
        process.exitCode = 1;
        return;
      }
      console.log(formatStatus(report));
    });
  });

program
  .command('search')
  .argument('<query>')
  .requiredOption('-d, --dataset <name>', 'dataset to search')
  .option('-u, --user <id>', 'user whose documents to search', config.defaultUserId)
  .option('-k, --limit <n>', 'hits to show', '5')
  .description('hybrid search: dense + sparse + keyword, fused by reciprocal rank')
  .action(async (query: string, opts: { dataset: string; user: string; limit: string }) => {
    await withAdapters(async (adapters) => {
      const hits = await hybridSearch(adapters, { userId: opts.user, datasetId: opts.dataset }, query, Number(opts.limit));
      console.log(formatHits(hits));
    });
  });

program
  .command('retry')
  .argument('<documentId>')
  .description('retry a failed document from the first stage that did not succeed')
  .action(async (documentId: string) => {
    await withAdapters(async (adapters) => {
      const client = await connectClient(config);
      try {
        const { taskId, via } = await retryDocument({ client, db: adapters.db, config }, documentId);
        console.log(`retry accepted: new task ${taskId} (via ${via})`);
      } catch (error) {
        if (!(error instanceof RetryRefusedError)) throw error;
        console.error(error.message);
        process.exitCode = 1;
      } finally {
        await client.connection.close();
      }
    });
  });

program
  .command('delete')
  .argument('<documentId>')
  .description('durably delete a document: vectors, keyword entries, objects and rows')
  .action(async (documentId: string) => {
    const client = await connectClient(config);
    try {
      const result = await deleteDocument({ client, config }, documentId);
      console.log(result.existed ? `deleted ${documentId} (${result.objectsDeleted} objects)` : `${documentId} did not exist`);
    } finally {
      await client.connection.close();
    }
  });

program
  .command('failed')
  .option('-d, --dataset <name>', 'only this dataset')
  .description('failed documents with their stage and failure code (a Temporal visibility query)')
  .action(async (opts: { dataset?: string }) => {
    const client = await connectClient(config);
    try {
      const failed = await listFailedDocuments(client, opts.dataset);
      if (failed.length === 0) console.log('no failed documents');
      for (const f of failed) console.log(`${f.documentId}  ${f.datasetId.padEnd(16)} ${f.stage.padEnd(20)} ${f.failureCode}`);
    } finally {
      await client.connection.close();
    }
  });

program
  .command('reembed')
  .requiredOption('-d, --dataset <name>', 'dataset whose vectors to bring to the current model')
  .option('-u, --user <id>', 'user the dataset belongs to', config.defaultUserId)
  .description("re-run VECTORIZING and SPARSE_VECTORIZING for documents embedded by another model")
  .action(async (opts: { dataset: string; user: string }) => {
    await withAdapters(async (adapters) => {
      const client = await connectClient(config);
      try {
        const report = await reembedDataset({ client, db: adapters.db, config, embedders: adapters.embedders }, { userId: opts.user, datasetId: opts.dataset });
        console.log(`current model ${report.model} (${report.dimension} dimensions): ${report.started.length} documents re-embedding`);
        for (const s of report.skipped) console.log(`skipped ${s.documentId}: ${s.reason}`);
        const outcome = await waitForDocuments(client, report.started.map((s) => ({ documentId: s.documentId, label: s.documentId })));
        if ([...outcome.values()].some((p) => p.status !== 'SUCCESS')) process.exitCode = 1;
      } finally {
        await client.connection.close();
      }
    });
  });

program
  .command('demo')
  .description('start the local stack and a worker, ingest the sample documents and print search hits')
  .action(async () => {
    startLocalStack();
    // Worker state changes would drown the progress bars and hits.
    installRuntimeLogging('WARN');
    const ok = await withAdapters(async (adapters) => {
      const running = await createSluiceWorker(config, adapters);
      try {
        return await running.worker.runUntil(runDemo(config, adapters, running.client, config.defaultUserId));
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
    await runApiServer();
  });

const embedding = program.command('embedding').description("a user's embedding provider, or the deployment-wide default");
const targetHelp = ['-u, --user <id>', 'the user whose configuration it is (default: SLUICE_USER_ID)'] as const;
const defaultHelp = ['--default', 'the deployment-wide default, for users without a configuration of their own'] as const;
// The command module is loaded inside each action, so `sluice --help` does not load it.
async function runEmbedding(run: (commands: typeof EmbeddingCommands, deps: EmbeddingConfigDeps) => Promise<number>): Promise<void> {
  const commands = await import('./commands/embedding.js');
  process.exitCode = await commands.withConfigDatabase(config, (deps) => run(commands, deps));
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

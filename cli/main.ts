import { Command } from 'commander';
import { addAccessCommands } from './accessCommands';
import { addDatasetCommands } from './datasetCommands';
import { addPlanCommands } from './planCommands';
import { addDocumentCommands } from './documentCommands';
import { addEmbeddingCommands } from './embeddingCommands';
import { addModelCommands } from './modelCommands';
import { addRebuildCommands } from './rebuildCommands';
import { addSecretsCommands } from './secretsCommands';
import { addSourceCommands } from './sourceCommands';

// The command modules register commander definitions only; each action loads what it needs when
// it runs (cli/session.ts), so `sluice --help` stays fast.

const program = new Command('sluice').description('durable document ingestion for RAG, on Temporal');
addDocumentCommands(program);
addRebuildCommands(program);
addEmbeddingCommands(program);
addModelCommands(program);
addDatasetCommands(program);
addPlanCommands(program);
addAccessCommands(program);
addSecretsCommands(program);
addSourceCommands(program);

program.parseAsync().catch((error: unknown) => {
  console.error(`sluice: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

import { Command } from 'commander';
import { addAccessCommands } from './cli/accessCommands';
import { addDocumentCommands } from './cli/documentCommands';
import { addEmbeddingCommands } from './cli/embeddingCommands';
import { addSecretsCommands } from './cli/secretsCommands';

// The command modules register commander definitions only; each action loads what it needs when
// it runs (client/cli/session.ts), so `sluice --help` stays fast.

const program = new Command('sluice').description('durable document ingestion for RAG, on Temporal');
addDocumentCommands(program);
addEmbeddingCommands(program);
addAccessCommands(program);
addSecretsCommands(program);

program.parseAsync().catch((error: unknown) => {
  console.error(`sluice: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

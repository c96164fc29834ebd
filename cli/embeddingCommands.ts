import type { Command } from 'commander';
import type * as EmbeddingCommands from './commands/embedding';
import type { EmbeddingConfigDeps } from '../client/embeddingConfigs';
import { config } from './session';

/** `sluice embedding set|show|test|delete`: a user's embedding provider, or the deployment default. */
export function addEmbeddingCommands(program: Command): void {
  const embedding = program
    .command('embedding')
    .description("a user's embedding provider, or the deployment-wide default");
  const targetHelp = ['-u, --user <id>', 'the user whose configuration it is (default: SLUICE_USER_ID)'] as const;
  const defaultHelp = [
    '--default',
    'the deployment-wide default, for users without a configuration of their own',
  ] as const;
  // The command module is loaded inside each action, so `sluice --help` does not load it.
  async function runEmbedding(
    run: (commands: typeof EmbeddingCommands, deps: EmbeddingConfigDeps) => Promise<number>,
  ): Promise<void> {
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
    .description(
      'store an embedding configuration (the API key sealed with SLUICE_SECRET_KEY; without a key option the stored key is kept)',
    )
    .action(
      async (opts: {
        model: string;
        dimension: string;
        baseUrl?: string;
        apiKeyEnv?: string;
        apiKeyStdin?: boolean;
        user?: string;
        default?: boolean;
      }) => {
        await runEmbedding((c, deps) => c.embeddingSet(deps, opts, c.processIo));
      },
    );
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
}

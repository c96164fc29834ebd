import type { Command } from 'commander';
import type * as ModelCommands from './commands/model';
import type { ModelConfigDeps } from '../client/modelConfigs';
import { config } from './session';

/**
 * `sluice model set|show|test|delete <chat|vision|rerank>`: the models enrichment calls
 * (docs/enrichment.md) and the reranker search calls (docs/search.md).
 */
export function addModelCommands(program: Command): void {
  const model = program
    .command('model')
    .description(
      "a user's CHAT or VISION model for enrichment (an OpenAI-compatible /chat/completions endpoint), or their RERANK model for search (a /rerank endpoint)",
    );
  const userHelp = ['-u, --user <id>', 'the user whose model it is (default: SLUICE_USER_ID)'] as const;
  // The command modules are loaded inside each action, so `sluice --help` does not load them.
  async function runModel(
    run: (commands: typeof ModelCommands, deps: ModelConfigDeps, io: ModelCommands.ModelIo) => Promise<number>,
  ): Promise<void> {
    const [commands, { withConfigDatabase, processIo }] = await Promise.all([
      import('./commands/model.js'),
      import('./commands/embedding.js'),
    ]);
    process.exitCode = await withConfigDatabase(await config(), (deps) => run(commands, deps, processIo));
  }
  model
    .command('set <chat|vision|rerank>')
    .requiredOption(
      '--base-url <url>',
      "an OpenAI-compatible endpoint (https://api.openai.com/v1), or the reranker's base (http://tei:8080, https://api.cohere.com/v1)",
    )
    .requiredOption('-m, --model <name>', 'the model, e.g. gpt-4o-mini')
    .option('--api-shape <tei|cohere>', "a reranker's request shape: TEI's, or Cohere's (also Jina's and vLLM's)")
    .option('--api-key-env <NAME>', 'read the API key from this environment variable')
    .option('--api-key-stdin', 'read the API key from standard input')
    .option(...userHelp)
    .description(
      'store the model (the API key sealed with SLUICE_SECRET_KEY; without a key option the stored key is kept)',
    )
    .action(async (purpose: string, opts: ModelCommands.ModelSetOptions) => {
      await runModel((c, deps, io) => c.modelSet(deps, purpose, opts, io));
    });
  model
    .command('show <chat|vision|rerank>')
    .option(...userHelp)
    .description('the stored model, with the API key masked')
    .action(async (purpose: string, opts: { user?: string }) => {
      await runModel((c, deps, io) => c.modelShow(deps, purpose, opts, io));
    });
  model
    .command('test <chat|vision|rerank>')
    .option(...userHelp)
    .description(
      'send one short chat (or, to a reranker, two texts to score) through the outbound policy and report the answer',
    )
    .action(async (purpose: string, opts: { user?: string }) => {
      await runModel((c, deps, io) => c.modelTest(deps, purpose, opts, io));
    });
  model
    .command('delete <chat|vision|rerank>')
    .option(...userHelp)
    .description('remove the model (and its sealed key)')
    .action(async (purpose: string, opts: { user?: string }) => {
      await runModel((c, deps, io) => c.modelDelete(deps, purpose, opts, io));
    });
}

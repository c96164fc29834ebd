import type { Command } from 'commander';
import type * as SourceCommands from './commands/source';
import type { SourceDeps } from '../client/sources';
import { userOf, withAdapters, withClient } from './session';

/** `sluice source add|list|pause|resume|sync|remove`: datasets that follow where documents live (docs/sources.md). */
export function addSourceCommands(program: Command): void {
  const source = program
    .command('source')
    .description(
      'sources a dataset follows: a folder, an S3 prefix, a git repository or a website, synced on a schedule',
    );
  const userHelp = ['-u, --user <id>', 'the user whose source it is (default: SLUICE_USER_ID)'] as const;
  // The command module is loaded inside each action, so `sluice --help` does not load it.
  async function run(
    opts: { user?: string },
    act: (commands: typeof SourceCommands, deps: SourceDeps, userId: string) => Promise<number>,
  ): Promise<void> {
    const commands = await import('./commands/source.js');
    const userId = await userOf(opts);
    process.exitCode = await withAdapters((adapters, cfg) =>
      withClient(cfg, (client) => act(commands, { client, db: adapters.db, config: cfg }, userId)),
    );
  }
  source
    .command('add')
    .requiredOption('-d, --dataset <name>', 'the dataset the documents go into')
    .requiredOption('--kind <folder|s3|git|web>', 'where the documents live')
    .option('--path <dir>', 'folder: an absolute path under SLUICE_SOURCE_FOLDER_ROOTS')
    .option('--bucket <name>', 's3: the bucket')
    .option('--prefix <prefix>', 's3: the key prefix; web: the URL prefix pages must be under')
    .option('--endpoint <url>', 's3: an S3-compatible endpoint (left out: AWS)')
    .option('--region <region>', 's3: the region')
    .option('--access-key-id <id>', 's3: the access key id (left out: the AWS default chain)')
    .option('--secret-env <NAME>', 's3: read the secret access key from this environment variable')
    .option('--secret-stdin', 's3: read the secret access key from standard input')
    .option('--url <url>', 'git: the repository URL')
    .option('--branch <name>', 'git: the branch')
    .option('--sitemap <url>', 'web: the sitemap listing the pages')
    .option('--start-url <url>', 'web: where a crawl starts')
    .option(
      '--include <glob>',
      'only paths matching this glob (repeatable)',
      (g: string, gs: string[]) => [...gs, g],
      [],
    )
    .option('--every <duration>', 'sync every 30m, 1h or 1d (at least a minute; default 1h)')
    .option('--cron <expression>', 'sync by this cron expression instead')
    .option(...userHelp)
    .description('follow a source: its first sync starts at once')
    .action(async (opts: SourceCommands.SourceAddOptions) => {
      await run(opts, (c, deps, userId) => c.sourceAdd(deps, userId, opts));
    });
  source
    .command('set <sourceId>')
    .option('--every <duration>', 'sync every 30m, 1h or 1d')
    .option('--cron <expression>', 'sync by this cron expression')
    .option('--settings <json>', "the kind's new settings as JSON (the kind stays)")
    .option('--secret-env <NAME>', 's3: read a new secret access key from this environment variable')
    .option('--secret-stdin', 's3: read a new secret access key from standard input')
    .option(...userHelp)
    .description("change a source's schedule, settings or secret; the next sync follows them")
    .action(async (id: string, opts: SourceCommands.SourceSetOptions) => {
      await run(opts, (c, deps, userId) => c.sourceSet(deps, userId, id, opts));
    });
  source
    .command('list')
    .option('-d, --dataset <name>', "only this dataset's sources")
    .option(...userHelp)
    .description("each source with its last sync's counts and failure codes, and its next run")
    .action(async (opts: { dataset?: string; user?: string }) => {
      await run(opts, (c, deps, userId) => c.sourceList(deps, userId, opts.dataset));
    });
  for (const [action, what] of [
    ['pause', "pause the source's schedule"],
    ['resume', "resume the source's schedule"],
    ['sync', 'sync the source now (skipped while a sync runs)'],
  ] as const) {
    source
      .command(`${action} <sourceId>`)
      .option(...userHelp)
      .description(what)
      .action(async (id: string, opts: { user?: string }) => {
        await run(opts, (c, deps, userId) => c.sourceAct(deps, userId, id, action));
      });
  }
  source
    .command('remove <sourceId>')
    .option('--keep-documents', 'keep its documents (as uploads would be) instead of deleting them')
    .option(...userHelp)
    .description('stop following the source; its documents are deleted from every store unless kept')
    .action(async (id: string, opts: { user?: string; keepDocuments?: boolean }) => {
      await run(opts, (c, deps, userId) =>
        c.sourceAct(deps, userId, id, 'remove', { keepDocuments: opts.keepDocuments === true }),
      );
    });
}

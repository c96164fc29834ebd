import type { Command } from 'commander';
import type * as DatasetCommands from './commands/datasetSettings';
import type { DatasetRef } from '../db/repositories/datasetSettings';
import { config, userHelp, userOf } from './session';

/** `sluice dataset show|set`: a dataset's own settings, section by section (docs/datasets.md). */
export function addDatasetCommands(program: Command): void {
  const dataset = program.command('dataset').description("a dataset's settings (chunking, search, parsing, ...)");
  async function runDataset(
    datasetId: string,
    opts: { user?: string },
    run: (
      commands: typeof DatasetCommands,
      db: Parameters<typeof DatasetCommands.datasetShow>[0],
      ref: DatasetRef,
    ) => Promise<number>,
  ): Promise<void> {
    const [commands, { withConfigDatabase }] = await Promise.all([
      import('./commands/datasetSettings.js'),
      import('./commands/embedding.js'),
    ]);
    const ref = { userId: await userOf(opts), datasetId };
    process.exitCode = await withConfigDatabase(await config(), ({ db }) => run(commands, db, ref));
  }
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  dataset
    .command('show')
    .argument('<dataset>', 'the dataset')
    .option(...userHelp)
    .description("the dataset's own settings; sections not shown take the deployment's defaults")
    .action(async (datasetId: string, opts: { user?: string }) => {
      await runDataset(datasetId, opts, (c, db, ref) => c.datasetShow(db, ref, io));
    });
  dataset
    .command('set')
    .argument('<dataset>', 'the dataset')
    .argument(
      '<json>',
      'sections to replace, e.g. \'{"chunking":{"strategy":"table"}}\'; a section set to null is reset',
    )
    .option(...userHelp)
    .description('change the dataset settings section by section')
    .action(async (datasetId: string, json: string, opts: { user?: string }) => {
      await runDataset(datasetId, opts, (c, db, ref) => c.datasetSet(db, ref, json, io));
    });
}

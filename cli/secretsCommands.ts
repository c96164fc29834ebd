import type { Command } from 'commander';
import { config } from './session';

/** `sluice secrets rotate`: stored secrets re-sealed under a new SLUICE_SECRET_KEY. */
export function addSecretsCommands(program: Command): void {
  const secrets = program.command('secrets').description('secrets stored sealed in the database');
  secrets
    .command('rotate')
    .description(
      're-seal every stored secret under SLUICE_SECRET_KEY, reading old ones with SLUICE_SECRET_KEY_PREVIOUS (see docs/outboundAndSecrets.md)',
    )
    .action(async () => {
      const [{ secretsRotate }, { withConfigDatabase, processIo }] = await Promise.all([
        import('./commands/secrets.js'),
        import('./commands/embedding.js'),
      ]);
      process.exitCode = await withConfigDatabase(await config(), (deps) => secretsRotate(deps, processIo));
    });
}

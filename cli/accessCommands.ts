import type { Command } from 'commander';
import { withAdapters } from './session';

/** `sluice users` and `sluice keys`: the HTTP API's users and their API keys. */
export function addAccessCommands(program: Command): void {
  const users = program.command('users').description('users of the HTTP API');
  users
    .command('create')
    .argument('<userId>', 'the id documents are stored under')
    .option('-n, --name <displayName>', 'display name')
    .option('-l, --label <label>', 'label of the first API key')
    .description('create a user (if new) and an API key for it; the key is printed once')
    .action(async (userId: string, opts: { name?: string; label?: string }) => {
      const { createUserWithKey } = await import('../api/apiKeys.js');
      await withAdapters(async (adapters) => {
        const issued = await createUserWithKey(adapters.db, userId, {
          displayName: opts.name ?? null,
          label: opts.label ?? null,
        });
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
      const [{ findUser }, { issueApiKey }] = await Promise.all([
        import('../db/repositories/apiKeys.js'),
        import('../api/apiKeys.js'),
      ]);
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
}

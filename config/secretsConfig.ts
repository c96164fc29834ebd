import { z } from 'zod';
import { parseEncryptionKey } from '../crypto/secretBox';
import type { EnvOf } from './envShape';
import type { StoresConfig } from './storesConfig';

/** The key secrets were sealed with before a rotation; the current one is SLUICE_SECRET_KEY (storesConfig). */
export const secretsEnv = {
  SLUICE_SECRET_KEY_PREVIOUS: z
    .string()
    .min(1)
    .optional()
    .describe('The key secrets were sealed with before a rotation (`sluice secrets rotate`).'),
  SLUICE_REQUIRE_CALLER_CLAIM: z
    .enum(['on', 'off'])
    .default('off')
    .describe(
      'Activities accept work for a user only with a caller claim, an HMAC of the user id under SLUICE_SECRET_KEY that the API and the CLI add: `on` when not every service with namespace access is trusted with every tenant (docs/workflow-contract.md). Needs SLUICE_SECRET_KEY.',
    ),
};

export interface SecretsSettings {
  /** SLUICE_SECRET_KEY_PREVIOUS: the key secrets were sealed with before a rotation (`sluice secrets rotate`). */
  secrets: {
    previousKey: string | null;
    /** SLUICE_REQUIRE_CALLER_CLAIM: work for a user is accepted only under a claim signed with a current or previous key. */
    requireCallerClaim: boolean;
  };
}

function checkKey(name: string, value: string, problems: string[]): void {
  try {
    parseEncryptionKey(value);
  } catch (error) {
    problems.push(`${name}: ${error instanceof Error ? error.message : 'invalid'}`);
  }
}

/** Both keys are checked at start-up, so a mistyped key stops the process, not the first decryption. */
export function secretsSettings(
  e: EnvOf<typeof secretsEnv>,
  stores: StoresConfig,
  secretKey: string | undefined,
  problems: string[],
): SecretsSettings {
  if (stores.embedder.kind === 'user-config' && stores.embedder.secretKey)
    checkKey('SLUICE_SECRET_KEY', stores.embedder.secretKey, problems);
  if (e.SLUICE_SECRET_KEY_PREVIOUS) checkKey('SLUICE_SECRET_KEY_PREVIOUS', e.SLUICE_SECRET_KEY_PREVIOUS, problems);
  const requireCallerClaim = e.SLUICE_REQUIRE_CALLER_CLAIM === 'on';
  if (requireCallerClaim && !secretKey)
    problems.push('SLUICE_REQUIRE_CALLER_CLAIM: needs SLUICE_SECRET_KEY, the key claims are signed with');
  return { secrets: { previousKey: e.SLUICE_SECRET_KEY_PREVIOUS ?? null, requireCallerClaim } };
}

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
};

export interface SecretsSettings {
  /** SLUICE_SECRET_KEY_PREVIOUS: the key secrets were sealed with before a rotation (`sluice secrets rotate`). */
  secrets: { previousKey: string | null };
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
  problems: string[],
): SecretsSettings {
  if (stores.embedder.kind === 'user-config' && stores.embedder.secretKey)
    checkKey('SLUICE_SECRET_KEY', stores.embedder.secretKey, problems);
  if (e.SLUICE_SECRET_KEY_PREVIOUS) checkKey('SLUICE_SECRET_KEY_PREVIOUS', e.SLUICE_SECRET_KEY_PREVIOUS, problems);
  return { secrets: { previousKey: e.SLUICE_SECRET_KEY_PREVIOUS ?? null } };
}

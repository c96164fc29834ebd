import type { SluiceConfig } from '../config/config';
import { parseEncryptionKey } from './secretBox';

/**
 * The secret stored API keys are sealed with: SLUICE_SECRET_KEY, which the config keeps as the
 * user-config embedder's key, or the API's session secret (also SLUICE_SECRET_KEY) otherwise;
 * null or undefined when it is not set.
 */
export function sealingSecretOf(config: Readonly<SluiceConfig>): string | null | undefined {
  return config.stores.embedder.kind === 'user-config' ? config.stores.embedder.secretKey : config.api.sessionSecret;
}

/** The keys sealed secrets open with: SLUICE_SECRET_KEY, then SLUICE_SECRET_KEY_PREVIOUS during a rotation; none unset. */
export function openingKeysOf(config: Readonly<SluiceConfig>): Buffer[] {
  return [sealingSecretOf(config), config.secrets.previousKey].flatMap((k) => (k ? [parseEncryptionKey(k)] : []));
}

import type { SluiceConfig } from '../../config/config';
import { parseEncryptionKey } from '../../crypto/secretBox';
import type { EmbeddingConfigDeps } from '../../client/embeddingConfigs';
import { encryptionKeyOf, EmbeddingConfigError } from '../../client/embeddingConfigs';
import { rotateSecrets } from '../../client/secretRotation';

export interface SecretsIo {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `sluice secrets rotate`, returning the exit code: 0 when every stored secret is now under
 * SLUICE_SECRET_KEY, 1 when some could be read with neither key (they are named by config id,
 * model configs by user and purpose).
 */
export async function secretsRotate(deps: EmbeddingConfigDeps, io: SecretsIo): Promise<number> {
  let current: Buffer;
  try {
    current = encryptionKeyOf(deps.config);
  } catch (error) {
    if (!(error instanceof EmbeddingConfigError)) throw error;
    io.err(error.message);
    return 1;
  }
  const previous = previousKeyOf(deps.config);
  const report = await rotateSecrets(deps.db, current, previous);
  io.out(
    `secrets under key id ${report.keyId}: ${report.resealed} re-sealed, ${report.alreadyCurrent} already current` +
      (report.changedMeanwhile > 0 ? `, ${report.changedMeanwhile} replaced meanwhile` : ''),
  );
  const unreadable = report.unreadable.length + report.unreadableModels.length + report.unreadableSources.length;
  if (unreadable === 0) return 0;
  const named = [
    ...(report.unreadable.length > 0 ? [`embedding config ids ${report.unreadable.join(', ')}`] : []),
    ...(report.unreadableModels.length > 0 ? [`model configs ${report.unreadableModels.join(', ')}`] : []),
    ...(report.unreadableSources.length > 0 ? [`sources ${report.unreadableSources.join(', ')}`] : []),
  ];
  io.err(
    `${unreadable} secret(s) could be opened with neither SLUICE_SECRET_KEY nor SLUICE_SECRET_KEY_PREVIOUS ` +
      `(${named.join('; ')}); they were left as they are`,
  );
  return 1;
}

function previousKeyOf(config: Readonly<SluiceConfig>): Buffer | null {
  return config.secrets.previousKey ? parseEncryptionKey(config.secrets.previousKey) : null;
}

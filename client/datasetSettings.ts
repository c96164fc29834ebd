import type { Kysely } from 'kysely';
import {
  datasetSettingsPatchSchema,
  datasetSettingsSchema,
  type DatasetSettings,
  type DatasetSettingsPatch,
} from '../contracts/datasetSettings';
import type { Database } from '../db/database';
import { findDatasetSettings, updateDatasetSettings, type DatasetRef } from '../db/repositories/datasetSettings';

/** A settings change that does not validate; its message names the field. */
export class DatasetSettingsError extends Error {
  override readonly name = 'DatasetSettingsError';
}

/** Each section the patch names replaces the stored one; `null` removes it. */
export function applySettingsPatch(current: DatasetSettings, patch: DatasetSettingsPatch): DatasetSettings {
  const next: Record<string, unknown> = { ...current };
  for (const [section, value] of Object.entries(patch)) {
    if (value === null) delete next[section];
    else if (value !== undefined) next[section] = value;
  }
  return datasetSettingsSchema.parse(next);
}

/** Validates untrusted input (a CLI argument, an HTTP body) as a patch, with a readable error. */
export function parseSettingsPatch(input: unknown): DatasetSettingsPatch {
  const parsed = datasetSettingsPatchSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`);
  throw new DatasetSettingsError(`invalid dataset settings: ${issues.join('; ')}`);
}

export function showDatasetSettings(db: Kysely<Database>, ref: DatasetRef): Promise<DatasetSettings> {
  return findDatasetSettings(db, ref);
}

export function changeDatasetSettings(db: Kysely<Database>, ref: DatasetRef, input: unknown): Promise<DatasetSettings> {
  const patch = parseSettingsPatch(input);
  return updateDatasetSettings(db, ref, (current) => applySettingsPatch(current, patch));
}

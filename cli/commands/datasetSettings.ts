import type { Kysely } from 'kysely';
import type { DatasetSettings } from '../../contracts/datasetSettings';
import { changeDatasetSettings, DatasetSettingsError, showDatasetSettings } from '../../client/datasetSettings';
import type { Database } from '../../db/database';
import type { DatasetRef } from '../../db/repositories/datasetSettings';

export interface DatasetIo {
  out(line: string): void;
  err(line: string): void;
}

/** Section by section, so a person sees which parts of the dataset differ from the defaults. */
export function formatSettings(datasetId: string, settings: DatasetSettings): string[] {
  const sections = Object.entries(settings);
  if (sections.length === 0) return [`dataset ${datasetId}: every setting is the deployment's default`];
  return [`dataset ${datasetId}:`, ...sections.map(([name, value]) => `  ${name}: ${JSON.stringify(value)}`)];
}

/** `sluice dataset show`: exit code 0. */
export async function datasetShow(db: Kysely<Database>, ref: DatasetRef, io: DatasetIo): Promise<number> {
  for (const line of formatSettings(ref.datasetId, await showDatasetSettings(db, ref))) io.out(line);
  return 0;
}

/** `sluice dataset set <id> '<json>'`: exit code 1 when the JSON or a setting is invalid. */
export async function datasetSet(db: Kysely<Database>, ref: DatasetRef, json: string, io: DatasetIo): Promise<number> {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch {
    io.err('the settings are not valid JSON, e.g. \'{"chunking":{"strategy":"table"}}\'');
    return 1;
  }
  try {
    const stored = await changeDatasetSettings(db, ref, input);
    for (const line of formatSettings(ref.datasetId, stored)) io.out(line);
    return 0;
  } catch (error) {
    if (!(error instanceof DatasetSettingsError)) throw error;
    io.err(error.message);
    return 1;
  }
}

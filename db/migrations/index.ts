import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './20261130T1400_initial_schema';

/**
 * Migrations are listed statically rather than discovered on disk, so they run the same way
 * under tsx, Jest and a compiled build. Names sort by their timestamp prefix.
 */
const migrations: Record<string, Migration> = {
  '20261130T1400_initial_schema': initialSchema,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

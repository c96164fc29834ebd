import { z } from 'zod';
import type { EnvInput } from './envInput';

const port = z.coerce.number().int().min(1).max(65535).optional();

/** The stack script's ports, checked with the rest so a typo fails fast. */
export const stackPortsEnv = {
  SLUICE_PG_PORT: port.describe("The stack's Postgres port; DATABASE_URL defaults to it."),
  SLUICE_TEMPORAL_PORT: port.describe(
    "The stack's Temporal port; TEMPORAL_ADDRESS defaults to it when no temporal.toml profile is named.",
  ),
  SLUICE_TEMPORAL_UI_PORT: port.describe("The stack's Temporal Web UI port; TEMPORAL_UI_URL defaults to it."),
};

/**
 * The stack script (scripts/stack.sh) moves its servers with SLUICE_PG_PORT, SLUICE_TEMPORAL_PORT and
 * SLUICE_TEMPORAL_UI_PORT. A process that starts the stack itself (`sluice demo`, `sluice up`) must
 * then reach the servers it just started, not whatever listens on the default ports, so the
 * addresses left unset default to those ports. An address that is set always wins, and so does a
 * temporal.toml profile: a derived TEMPORAL_ADDRESS would override the profile's address (an
 * environment variable beats the profile), sending a profile's mTLS to the dev server.
 */
export function withStackPortDefaults(env: EnvInput): EnvInput {
  const derived: EnvInput = { ...env };
  const port = (name: string): string | undefined => {
    const value = env[name];
    return value !== undefined && /^\d{1,5}$/.test(value) ? value : undefined;
  };
  const pg = port('SLUICE_PG_PORT');
  const temporal = port('SLUICE_TEMPORAL_PORT');
  const ui = port('SLUICE_TEMPORAL_UI_PORT');
  if (pg && env.DATABASE_URL === undefined) derived.DATABASE_URL = `postgres://postgres@127.0.0.1:${pg}/sluice`;
  const profile = env.TEMPORAL_CONFIG_FILE !== undefined || env.TEMPORAL_PROFILE !== undefined;
  if (temporal && env.TEMPORAL_ADDRESS === undefined && !profile) derived.TEMPORAL_ADDRESS = `127.0.0.1:${temporal}`;
  if (ui && env.TEMPORAL_UI_URL === undefined) derived.TEMPORAL_UI_URL = `http://127.0.0.1:${ui}`;
  return derived;
}

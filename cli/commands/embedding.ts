import { secretFromEnvironment, type EnvInput, type SluiceConfig } from '../../config/config';
import { SluiceError } from '../../contracts/sluiceError';
import { createDb } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import {
  configsApply,
  deleteEmbeddingSettings,
  showEmbeddingConfig,
  EmbeddingConfigError,
  saveEmbeddingSettings,
  testEmbeddingSettings,
  type ConfigTarget,
  type EmbeddingConfigDeps,
  type EmbeddingConfigView,
} from '../../client/embeddingConfigs';

/**
 * `sluice embedding set|show|test|delete`. Each returns the process exit code and writes through
 * `io`, so tests run the same functions the CLI does. An API key never comes from argv (it
 * would sit in shell history and `ps`): only from a named environment variable or stdin.
 */

export interface EmbeddingIo {
  out(line: string): void;
  err(line: string): void;
  /** All of standard input. */
  readStdin(): Promise<string>;
  env?: EnvInput;
}

export interface TargetOptions {
  user?: string;
  default?: boolean;
}

export interface SetOptions extends TargetOptions {
  baseUrl?: string;
  model: string;
  dimension: string;
  apiKeyEnv?: string;
  apiKeyStdin?: boolean;
}

const MAX_KEY_CHARS = 4096;

function targetOf(opts: TargetOptions, defaultUserId: string): ConfigTarget {
  if (opts.default && opts.user !== undefined) throw new EmbeddingConfigError('give --user or --default, not both');
  return opts.default ? 'deployment' : { userId: opts.user ?? defaultUserId };
}

const describeTarget = (target: ConfigTarget) =>
  target === 'deployment' ? 'the deployment default' : `user ${target.userId}`;

export function formatView(view: EmbeddingConfigView): string[] {
  const source = {
    user: "the user's own",
    deployment: 'the deployment default (stored)',
    environment: 'the deployment default (SLUICE_DEFAULT_EMBEDDING_*)',
  }[view.source];
  return [
    `source:    ${source}`,
    `base URL:  ${view.baseUrl ?? '(provider default)'}`,
    `model:     ${view.model}`,
    `dimension: ${view.dimension}`,
    `API key:   ${view.apiKey ?? 'none'}`,
    ...(view.updatedAt ? [`updated:   ${view.updatedAt}`] : []),
  ];
}

/** undefined: neither option given, the stored key is kept. `sluice model set` reads its key the same way. */
export async function readApiKey(
  opts: { apiKeyEnv?: string; apiKeyStdin?: boolean },
  io: EmbeddingIo,
): Promise<string | undefined> {
  if (opts.apiKeyEnv !== undefined && opts.apiKeyStdin)
    throw new EmbeddingConfigError('give --api-key-env or --api-key-stdin, not both');
  let key: string | undefined;
  if (opts.apiKeyEnv !== undefined) {
    key = secretFromEnvironment(opts.apiKeyEnv, io.env);
    if (key === undefined) throw new EmbeddingConfigError(`the environment variable ${opts.apiKeyEnv} is not set`);
  } else if (opts.apiKeyStdin) {
    key = (await io.readStdin()).replace(/\r?\n$/, '');
    if (key === '') throw new EmbeddingConfigError('standard input held no API key');
  }
  if (key !== undefined && (key.length > MAX_KEY_CHARS || /\s/.test(key)))
    throw new EmbeddingConfigError('the API key must be one line without spaces, at most 4096 characters');
  return key;
}

export async function guarded(io: Pick<EmbeddingIo, 'err'>, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    // Caller mistakes and classified failures carry safe messages; anything else propagates.
    if (!(error instanceof EmbeddingConfigError) && !(error instanceof SluiceError)) throw error;
    io.err(error.message);
    return 1;
  }
}

export function embeddingSet(deps: EmbeddingConfigDeps, opts: SetOptions, io: EmbeddingIo): Promise<number> {
  return guarded(io, async () => {
    const target = targetOf(opts, deps.config.defaultUserId);
    const dimension = Number(opts.dimension);
    if (!Number.isInteger(dimension) || dimension < 1 || dimension > 65536)
      throw new EmbeddingConfigError(`--dimension must be an integer from 1 to 65536, got ${opts.dimension}`);
    const apiKey = await readApiKey(opts, io);
    const outcome = await saveEmbeddingSettings(deps, target, {
      baseUrl: opts.baseUrl ?? null,
      model: opts.model,
      dimension,
      apiKey,
    });
    io.out(`saved the embedding configuration of ${describeTarget(target)}`);
    for (const line of formatView(outcome.view)) io.out(`  ${line}`);
    if (!configsApply(deps.config))
      io.out('note: this deployment does not embed with stored configurations (SLUICE_EMBEDDER is not user-config)');
    if (outcome.reembedSuggested) {
      io.out('the model or dimension changed: vectors made by the previous one are stale. Re-embed with');
      if (target === 'deployment')
        io.out('  sluice reembed -d <dataset> -u <user>   (for each user without a configuration of their own)');
      else for (const dataset of outcome.datasets) io.out(`  sluice reembed -d ${dataset} -u ${target.userId}`);
    }
    return 0;
  });
}

export function embeddingShow(deps: EmbeddingConfigDeps, opts: TargetOptions, io: EmbeddingIo): Promise<number> {
  return guarded(io, async () => {
    const target = targetOf(opts, deps.config.defaultUserId);
    const view = await showEmbeddingConfig(deps, target);
    if (!view) {
      io.out(
        `${describeTarget(target)}: no embedding configuration reaches it (set one with \`sluice embedding set\`)`,
      );
      return 1;
    }
    io.out(`embedding configuration of ${describeTarget(target)}:`);
    for (const line of formatView(view)) io.out(`  ${line}`);
    return 0;
  });
}

export function embeddingTest(deps: EmbeddingConfigDeps, opts: TargetOptions, io: EmbeddingIo): Promise<number> {
  return guarded(io, async () => {
    const target = targetOf(opts, deps.config.defaultUserId);
    const result = await testEmbeddingSettings(deps, target);
    if (!result) {
      io.err(`${describeTarget(target)}: no embedding configuration to test`);
      return 1;
    }
    if (result.ok) io.out(`OK: ${result.message}`);
    else io.err(`FAILED: ${result.message}`);
    return result.ok ? 0 : 1;
  });
}

export function embeddingDelete(deps: EmbeddingConfigDeps, opts: TargetOptions, io: EmbeddingIo): Promise<number> {
  return guarded(io, async () => {
    const target = targetOf(opts, deps.config.defaultUserId);
    const deleted = await deleteEmbeddingSettings(deps, target);
    io.out(
      deleted
        ? `deleted the embedding configuration of ${describeTarget(target)}`
        : `${describeTarget(target)} had no embedding configuration of its own`,
    );
    return deleted ? 0 : 1;
  });
}

/** What the CLI hands the functions above: the real streams and environment. */
export const processIo: EmbeddingIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  async readStdin() {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      size += (chunk as Buffer).length;
      if (size > MAX_KEY_CHARS * 4) throw new EmbeddingConfigError('standard input is too long for an API key');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  },
};

/** The commands need only Postgres: no object store, index or Temporal connection. */
export async function withConfigDatabase(
  config: Readonly<SluiceConfig>,
  run: (deps: EmbeddingConfigDeps) => Promise<number>,
): Promise<number> {
  const db = createDb(config.database.url, 2);
  try {
    await migrateToLatest(db);
    return await run({ db, config });
  } finally {
    await db.destroy();
  }
}

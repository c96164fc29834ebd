import {
  deleteModelSettings,
  MODEL_PURPOSES,
  saveModelSettings,
  showModelSettings,
  testModelSettings,
  type ModelConfigDeps,
  type ModelConfigView,
} from '../../client/modelConfigs';
import { EmbeddingConfigError } from '../../client/embeddingConfigs';
import type { ModelPurpose } from '../../db/database';
import { RERANK_SHAPES, type RerankShape } from '../../rerank/rerankProtocol';
import { guarded, readApiKey, type EmbeddingIo } from './embedding';

/** The CLI's streams and environment (the embedding commands' own). */
export type ModelIo = EmbeddingIo;

/**
 * `sluice model set|show|test|delete <chat|vision|rerank>`: a user's CHAT, VISION or RERANK model, managed as
 * `sluice embedding` manages embedding configs (the same key options, never a key on argv).
 * Each returns the exit code and writes through `io`, so tests run what the CLI runs.
 */

export interface ModelSetOptions {
  user?: string;
  baseUrl: string;
  model: string;
  apiKeyEnv?: string;
  apiKeyStdin?: boolean;
  apiShape?: string;
}

function purposeOf(name: string): ModelPurpose {
  const purpose = MODEL_PURPOSES.find((p) => p === name.toLowerCase());
  if (!purpose) throw new EmbeddingConfigError(`the model is chat, vision or rerank, not ${JSON.stringify(name)}`);
  return purpose;
}

function shapeOf(name: string): RerankShape {
  const shape = RERANK_SHAPES.find((s) => s === name.toLowerCase());
  if (!shape)
    throw new EmbeddingConfigError(`the API shape is ${RERANK_SHAPES.join(' or ')}, not ${JSON.stringify(name)}`);
  return shape;
}

export function formatModelView(view: ModelConfigView): string[] {
  return [
    `base URL:  ${view.baseUrl}`,
    `model:     ${view.model}`,
    `API key:   ${view.apiKey ?? 'none'}`,
    ...(view.apiShape ? [`API shape: ${view.apiShape}`] : []),
    `updated:   ${view.updatedAt}`,
  ];
}

export function modelSet(deps: ModelConfigDeps, name: string, opts: ModelSetOptions, io: EmbeddingIo): Promise<number> {
  return guarded(io, async () => {
    const purpose = purposeOf(name);
    const userId = opts.user ?? deps.config.defaultUserId;
    const apiKey = await readApiKey(opts, io);
    const view = await saveModelSettings(deps, userId, purpose, {
      baseUrl: opts.baseUrl,
      model: opts.model,
      apiKey,
      ...(opts.apiShape === undefined ? {} : { apiShape: shapeOf(opts.apiShape) }),
    });
    io.out(`saved the ${purpose.toUpperCase()} model of user ${userId}`);
    for (const line of formatModelView(view)) io.out(`  ${line}`);
    return 0;
  });
}

export function modelShow(deps: ModelConfigDeps, name: string, opts: { user?: string }, io: EmbeddingIo) {
  return guarded(io, async () => {
    const purpose = purposeOf(name);
    const userId = opts.user ?? deps.config.defaultUserId;
    const view = await showModelSettings(deps, userId, purpose);
    if (!view) {
      io.out(`user ${userId} has no ${purpose.toUpperCase()} model (set one with \`sluice model set ${purpose}\`)`);
      return 1;
    }
    io.out(`${purpose.toUpperCase()} model of user ${userId}:`);
    for (const line of formatModelView(view)) io.out(`  ${line}`);
    return 0;
  });
}

export function modelTest(deps: ModelConfigDeps, name: string, opts: { user?: string }, io: EmbeddingIo) {
  return guarded(io, async () => {
    const purpose = purposeOf(name);
    const userId = opts.user ?? deps.config.defaultUserId;
    const result = await testModelSettings(deps, userId, purpose);
    if (!result) {
      io.err(`user ${userId} has no ${purpose.toUpperCase()} model to test`);
      return 1;
    }
    if (result.ok) io.out(`OK: ${result.message}`);
    else io.err(`FAILED: ${result.message}`);
    return result.ok ? 0 : 1;
  });
}

export function modelDelete(deps: ModelConfigDeps, name: string, opts: { user?: string }, io: EmbeddingIo) {
  return guarded(io, async () => {
    const purpose = purposeOf(name);
    const userId = opts.user ?? deps.config.defaultUserId;
    const deleted = await deleteModelSettings(deps, userId, purpose);
    io.out(
      deleted
        ? `deleted the ${purpose.toUpperCase()} model of user ${userId}`
        : `user ${userId} had no ${purpose.toUpperCase()} model`,
    );
    return deleted ? 0 : 1;
  });
}

import { isChunkingStrategy } from './chunkingPlan';

/** As long as any id the contract takes (contracts/ingestSchema.ts): a user id is what callers record. */
export const MAX_CONFIRMED_BY_CHARS = 200;

const CONFIRMATION_KEYS: ReadonlySet<string> = new Set(['strategy', 'parameters', 'confirmedBy']);
const PARAMETER_KEYS: ReadonlySet<string> = new Set(['childTokens', 'overlapTokens', 'parentTokens']);

/**
 * Why a `confirmPlan` argument is not a confirmation, or null when its shape is one. An accepted
 * update is written to history and its `confirmedBy` to the plan's row, so nothing unnamed or
 * unbounded may pass: unknown keys are refused, not dropped. Pure: the workflow's validator runs it.
 * The parameters' values are checked against the plan they change (chunkingParametersProblem).
 */
export function planConfirmationShapeProblem(confirmation: unknown): string | null {
  if (confirmation === undefined || confirmation === null) return null;
  if (!isPlainObject(confirmation)) return 'a confirmation must be an object';
  const unknownKey = Object.keys(confirmation).find((key) => !CONFIRMATION_KEYS.has(key));
  if (unknownKey !== undefined) return `unknown field ${JSON.stringify(unknownKey.slice(0, 40))}`;
  const { strategy, parameters, confirmedBy } = confirmation;
  if (strategy !== undefined && !isChunkingStrategy(strategy))
    return `unknown strategy ${String(strategy).slice(0, 40)}`;
  if (confirmedBy !== undefined && confirmedBy !== null) {
    if (typeof confirmedBy !== 'string') return 'confirmedBy must be a string';
    if (confirmedBy.length === 0 || confirmedBy.length > MAX_CONFIRMED_BY_CHARS)
      return `confirmedBy must be 1 to ${MAX_CONFIRMED_BY_CHARS} characters`;
    if (hasControlCharacter(confirmedBy)) return 'confirmedBy must not contain control characters';
  }
  if (parameters === undefined) return null;
  if (!isPlainObject(parameters)) return 'parameters must be an object';
  const unknownParameter = Object.keys(parameters).find((key) => !PARAMETER_KEYS.has(key));
  if (unknownParameter !== undefined) return `unknown parameter ${JSON.stringify(unknownParameter.slice(0, 40))}`;
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

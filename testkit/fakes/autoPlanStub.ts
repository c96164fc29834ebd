import { DEFAULT_CHUNKING_PARAMETERS, type PlannedChunking } from '../../contracts/chunkingPlan';

/**
 * The plan step of a stubbed run in review mode `auto`: the default plan, confirmed as proposed.
 * Workflow tests about something else register it so their runs reach CHUNKING
 * (test/workflow/chunkingPlan.workflow.test.ts tests the plan itself).
 */
export async function autoPlanChunking(): Promise<PlannedChunking> {
  const plan = { strategy: 'general' as const, parameters: DEFAULT_CHUNKING_PARAMETERS, reason: 'stub' };
  return Promise.resolve({
    state: 'CONFIRMED',
    plan,
    recommended: plan,
    review: 'auto',
    autoConfirmAfter: null,
    preview: [],
    chunkCount: 7,
  });
}

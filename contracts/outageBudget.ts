/**
 * How long a run rides out transient failures (a dependency down, a provider's rate limit, a lost
 * worker) at one step before the step fails: SLUICE_OUTAGE_BUDGET, recorded in prepareTask's
 * result so that a replay keeps it. Runs prepared before it existed, and the steps before
 * prepareTask answers, use this default.
 */
export const DEFAULT_OUTAGE_BUDGET_MS = 60 * 60 * 1000;

/** An unclassified error is a bug, not an outage: it is retried this many times, then fails. */
export const MAX_UNCLASSIFIED_ATTEMPTS = 5;

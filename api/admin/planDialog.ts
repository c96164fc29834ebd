import { CHUNKING_STRATEGIES } from '../../contracts/chunkingPlan';

/**
 * The review of a waiting chunking plan: planReview.js fills it from GET /v1/documents/{id}/plan
 * (strategy, reason, a preview of the first chunks) and sends Confirm, or Change with another
 * strategy or sizes, to POST /v1/documents/{id}/plan/confirm.
 */
export function planDialog(): string {
  const options = CHUNKING_STRATEGIES.map((s) => `<option value="${s}">${s}</option>`).join('');
  return `<dialog id="plan-dialog">
<h2>Chunking plan of <em id="plan-file"></em></h2>
<p><strong id="plan-strategy"></strong> <span id="plan-parameters" class="muted"></span></p>
<p id="plan-reason"></p>
<p class="muted"><span id="plan-chunk-count"></span> chunks; the first ones:</p>
<ol id="plan-preview" class="plan-preview"></ol>
<form id="plan-form" method="dialog">
<button type="button" id="plan-confirm">Confirm</button>
<fieldset><legend>Change</legend>
<label>strategy <select name="strategy">${options}</select></label>
<label>child tokens <input name="childTokens" type="number" min="8" max="8192"></label>
<label>overlap tokens <input name="overlapTokens" type="number" min="0" max="4096"></label>
<label>parent tokens <input name="parentTokens" type="number" min="8" max="65536" placeholder="section"></label>
<button type="button" id="plan-change">Change and confirm</button>
</fieldset>
<p id="plan-error" class="error" role="alert"></p>
<button type="submit" id="plan-close">Close</button>
</form>
</dialog>`;
}

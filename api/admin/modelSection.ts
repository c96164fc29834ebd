import { MODEL_PURPOSES } from '../../client/modelConfigs';
import { esc } from './html';

/**
 * The CHAT and VISION model forms (api/admin/modelConfigs.js fills them from GET
 * /v1/model-configs/{purpose}); as in the embedding form, the API key field is write-only.
 */
export function modelSection(): string {
  const forms = MODEL_PURPOSES.map(
    (purpose) => `<form class="model-form" data-purpose="${esc(purpose)}">
<h3>${esc(purpose.toUpperCase())} model</h3>
<p class="model-current muted">loading…</p>
<label>base URL <input name="baseUrl" type="url" required placeholder="https://api.openai.com/v1"></label>
<label>model <input name="model" required maxlength="200"></label>
<label>API key <input name="apiKey" type="password" autocomplete="off" placeholder="leave empty to keep the stored key"></label>
<button type="submit">Save</button>
<button type="button" class="model-test">Test</button>
<button type="button" class="model-delete danger">Delete</button>
<p class="model-status" role="status"></p>
</form>`,
  ).join('\n');
  return `<section id="model-section">
<h2>Enrichment models</h2>
<p class="muted">CHAT: chunk keywords, questions and table repair; VISION: image descriptions (docs/enrichment.md).</p>
${forms}
</section>`;
}

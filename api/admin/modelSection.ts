import { MODEL_PURPOSES } from '../../client/modelConfigs';
import { RERANK_SHAPES } from '../../rerank/rerankProtocol';
import { esc } from './html';

/**
 * The CHAT, VISION and RERANK model forms (api/admin/modelConfigs.js fills them from GET
 * /v1/model-configs/{purpose}); as in the embedding form, the API key field is write-only. The
 * reranker's form also asks for the request shape its endpoint speaks.
 */
const SHAPE_FIELD = `<label>API shape <select name="apiShape">${RERANK_SHAPES.map(
  (shape) => `<option value="${esc(shape)}">${esc(shape)}</option>`,
).join('')}</select></label>`;

export function modelSection(): string {
  const forms = MODEL_PURPOSES.map(
    (purpose) => `<form class="model-form" data-purpose="${esc(purpose)}">
<h3>${esc(purpose.toUpperCase())} model</h3>
<p class="model-current muted">loading…</p>
<label>base URL <input name="baseUrl" type="url" required placeholder="https://api.openai.com/v1"></label>
<label>model <input name="model" required maxlength="200"></label>
<label>API key <input name="apiKey" type="password" autocomplete="off" placeholder="leave empty to keep the stored key"></label>
${purpose === 'rerank' ? SHAPE_FIELD : ''}
<button type="submit">Save</button>
<button type="button" class="model-test">Test</button>
<button type="button" class="model-delete danger">Delete</button>
<p class="model-status" role="status"></p>
</form>`,
  ).join('\n');
  return `<section id="model-section">
<h2>Models</h2>
<p class="muted">CHAT: chunk keywords, questions and table repair; VISION: image descriptions (docs/enrichment.md);
RERANK: the order of search results (docs/search.md).</p>
${forms}
</section>`;
}

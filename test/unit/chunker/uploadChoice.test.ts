import { STRATEGY_PARAMETERS } from '../../../chunker/recommendPlan';
import { uploadChoiceProblem } from '../../../chunker/uploadChoice';
import { proposePlan } from '../../../chunker/proposePlan';
import { chunkingParametersProblem } from '../../../contracts/chunkingPlan';

const GENERAL = { childTokens: 400, overlapTokens: 60, parentTokens: null };

describe('uploadChoiceProblem', () => {
  it("refuses a size that only fails merged with the strategy's parameters", () => {
    expect(uploadChoiceProblem({ strategy: 'one', parameters: { childTokens: 50 } }, GENERAL)).toMatch(
      /^overlapTokens .*under one: child 50 \/ overlap 60/,
    );
    expect(uploadChoiceProblem({ strategy: 'qa', parameters: { childTokens: 50 } }, GENERAL)).toBeNull();
    expect(uploadChoiceProblem({ strategy: 'table', parameters: { childTokens: 4000 } }, GENERAL)).toMatch(
      /^parentTokens/,
    );
  });

  it('checks a choice without a strategy under every strategy the plan may pick', () => {
    expect(uploadChoiceProblem({ parameters: { childTokens: 50 } }, GENERAL)).toMatch(/under general/);
    expect(uploadChoiceProblem({ parameters: { childTokens: 50, overlapTokens: 10 } }, GENERAL)).toBeNull();
    expect(uploadChoiceProblem({}, GENERAL)).toBeNull();
  });

  it('what it lets through, the plan can chunk with', () => {
    const markdown = '# Notes\n\nA short note about the lantern valves.';
    for (const strategy of Object.keys(STRATEGY_PARAMETERS) as (keyof typeof STRATEGY_PARAMETERS)[]) {
      const choice = { strategy, parameters: { childTokens: 120, overlapTokens: 10 } };
      expect(uploadChoiceProblem(choice, GENERAL)).toBeNull();
      const { plan, previewProblem } = proposePlan({
        documentId: 'doc',
        markdown,
        fileType: 'md',
        dataset: null,
        document: choice,
        generalParameters: GENERAL,
        limits: { maxChunks: 1000 },
      });
      expect(chunkingParametersProblem(plan.parameters)).toBeNull();
      expect(previewProblem).toBeNull();
    }
  });
});

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

  it("checks a choice against the dataset's own sizes where the plan lays it over them", () => {
    const small = { strategy: 'general' as const, parameters: { childTokens: 100, overlapTokens: 10 } };
    // Fine over the deployment's 400-token children, too much overlap over the dataset's 100.
    expect(uploadChoiceProblem({ parameters: { overlapTokens: 80 } }, GENERAL)).toBeNull();
    expect(uploadChoiceProblem({ parameters: { overlapTokens: 80 } }, GENERAL, small)).toMatch(
      /^overlapTokens .*under general: child 100 \/ overlap 80/,
    );
    expect(uploadChoiceProblem({ strategy: 'general', parameters: { overlapTokens: 80 } }, GENERAL, small)).toMatch(
      /child 100/,
    );
    // Another strategy than the dataset's starts from that strategy's own sizes (proposePlan).
    expect(uploadChoiceProblem({ strategy: 'qa', parameters: { overlapTokens: 80 } }, GENERAL, small)).toBeNull();
    // A dataset on auto may be recommended any strategy: its sizes count under each.
    const auto = { strategy: 'auto' as const, parameters: { childTokens: 150 } };
    expect(uploadChoiceProblem({ parameters: { overlapTokens: 70 } }, GENERAL, auto)).toBeNull();
    expect(uploadChoiceProblem({ parameters: { overlapTokens: 80 } }, GENERAL, auto)).toMatch(/child 150/);
    // With the choice's strategy among the recommendable ones, both bases are checked.
    expect(uploadChoiceProblem({ strategy: 'qa', parameters: { overlapTokens: 80 } }, GENERAL, auto)).toMatch(
      /under qa: child 150/,
    );
  });

  it('what it lets through, the plan can chunk with, under any dataset sizes', () => {
    const markdown = '# Notes\n\n## Valves\n\nA short note about the lantern valves.\n\n## Pumps\n\nAnd the pumps.';
    const datasets = [
      null,
      { strategy: 'general' as const, parameters: { childTokens: 100, overlapTokens: 10 } },
      { strategy: 'auto' as const, parameters: { childTokens: 150 } },
      { strategy: 'table' as const, parameters: { parentTokens: 600 } },
    ];
    const choices = [
      { parameters: { overlapTokens: 40 } },
      { strategy: 'qa' as const, parameters: { overlapTokens: 40 } },
      { strategy: 'general' as const, parameters: { childTokens: 90 } },
      { strategy: 'table' as const, parameters: { childTokens: 300 } },
    ];
    let accepted = 0;
    for (const dataset of datasets)
      for (const choice of choices) {
        const { plan } = proposePlan({
          documentId: 'doc',
          markdown,
          fileType: 'md',
          dataset,
          document: choice,
          generalParameters: GENERAL,
          limits: { maxChunks: 1000 },
        });
        // Refused exactly when the plan the choice would make cannot be chunked with.
        const refused = uploadChoiceProblem(choice, GENERAL, dataset) !== null;
        if (refused) continue;
        accepted++;
        expect(chunkingParametersProblem(plan.parameters)).toBeNull();
      }
    expect(accepted).toBeGreaterThanOrEqual(12);
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

import type { Command } from 'commander';
import type { ChunkingStrategy } from '../contracts/chunkingPlan';
import type { PlanConfirmation } from '../contracts/ingestApi';
import { givenParameters } from './chunkingChoiceOptions';
import { withAdapters, withClient } from './session';

/** `sluice plan show|confirm`: a document's chunking plan and its confirmation (docs/datasets.md, "The plan"). */
export function addPlanCommands(program: Command): void {
  const plan = program.command('plan').description("a document's chunking plan: show it, confirm or change it");
  plan
    .command('show')
    .argument('<documentId>')
    .description('the plan of the latest task: state, strategy, parameters, reason and a preview of its first chunks')
    .action(async (documentId: string) => {
      const { showPlan } = await import('../client/chunkingPlan.js');
      await withAdapters(async (adapters) => {
        const stored = await showPlan(adapters.db, documentId);
        if (!stored) {
          console.error(`document ${documentId} has no chunking plan yet`);
          process.exitCode = 1;
          return;
        }
        console.log(`plan       ${stored.state} ${stored.plan.strategy} ${JSON.stringify(stored.plan.parameters)}`);
        console.log(`reason     ${stored.plan.reason}`);
        console.log(`suggested  ${stored.recommended.strategy}: ${stored.recommended.reason}`);
        console.log(`chunks     ${stored.chunkCount} (review ${stored.review})`);
        for (const chunk of stored.preview)
          console.log(
            `--- #${chunk.chunkIndex} ${chunk.sectionPath.join(' › ')} (${chunk.tokenCount} tokens)\n${chunk.text}`,
          );
      });
    });
  plan
    .command('confirm')
    .argument('<documentId>')
    .option('--strategy <strategy>', 'another strategy: general, qa, table, page or one')
    .option('--child-tokens <n>', 'child chunk size in tokens', Number)
    .option('--overlap-tokens <n>', 'overlap between children in tokens', Number)
    .option('--parent-tokens <n>', 'parent size in tokens', Number)
    .option('--by <name>', 'who confirms (recorded with the plan)')
    .description('confirm the waiting plan, as proposed or with another strategy or parameters')
    .action(
      async (
        documentId: string,
        opts: { strategy?: string; childTokens?: number; overlapTokens?: number; parentTokens?: number; by?: string },
      ) => {
        const { confirmPlan } = await import('../client/chunkingPlan.js');
        const parameters = givenParameters(opts);
        const confirmation: PlanConfirmation = {
          ...(opts.strategy ? { strategy: opts.strategy as ChunkingStrategy } : {}),
          ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
          ...(opts.by ? { confirmedBy: opts.by } : {}),
        };
        await withAdapters((_adapters, cfg) =>
          withClient(cfg, async (client) => {
            try {
              const confirmed = await confirmPlan(client, documentId, confirmation);
              console.log(
                `confirmed: ${confirmed.strategy} ${JSON.stringify(confirmed.parameters)} (${confirmed.reason})`,
              );
            } catch (error) {
              const cause = (error as { cause?: { message?: string } }).cause;
              console.error(cause?.message ?? String(error));
              process.exitCode = 1;
            }
          }),
        );
      },
    );
}

import type { StageInput, StageResult } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { findDatasetSettings } from '../../db/repositories/datasetSettings';
import { findDocument } from '../../db/repositories/documents';
import { findRecordedParse } from '../../db/repositories/parsedOutputs';
import { objectKeys } from '../../stores/objectKeys';
import { ObjectNotFoundError } from '../../stores/ports';
import { storeMarkdown, type ParsedDocument } from './cleaning';
import type { ActivityDeps } from '../deps';
import { describeImages } from './imageDescriptions';
import { runStage } from './stageTemplate';
import { repairTables } from './tableRepair';
import { orTransient } from '../transient';

export interface EnrichMarkdownInput extends StageInput {
  /**
   * What parseForEnrichment returned in a run started before it recorded the parse on the task;
   * absent otherwise, and the parse is read from the task.
   */
  parsed?: ParsedDocument;
}

/**
 * CLEANING's second part, on the enrichment task queue (contracts/taskQueues.ts), whose slots and
 * rate limit bound every model call: the dataset's image descriptions, then its table repair
 * (docs/enrichment.md), over the markdown parseForEnrichment stored. The result replaces that
 * object and the stage's SUCCESS is recorded here. Each image and table is checkpointed as it is
 * answered, so an attempt after a crash or a retry asks the model only for what is still missing.
 * Settings are read now: an option turned off since the run began is not applied.
 */
export function createEnrichMarkdownActivity(deps: ActivityDeps) {
  return async function enrichMarkdown(given: EnrichMarkdownInput): Promise<StageResult> {
    const { parsed: handedOn, ...input } = given;
    return runStage(deps, input, 'CLEANING', async () => {
      const parsed = handedOn ?? (await findRecordedParse(deps.db, input.taskId));
      if (!parsed) throw permanentError('PARSE_ENGINE_FAILED', 'the parse this enrichment follows was not recorded');
      const key = objectKeys.markdown(input.userId, input.documentId, input.taskId);
      const markdown = await readParsed(deps, key);
      const options = (await findDatasetSettings(deps.db, input)).enrichment;
      const described = options?.imageDescriptions ? await describeImages(deps, input, markdown) : markdown;
      const enriched = options?.tableRepair ? await repairTables(deps, input, described) : described;
      if (enriched !== markdown) await storeMarkdown(deps, input, enriched, await imagesCharged(deps, input, markdown));
      return { items: Buffer.byteLength(enriched, 'utf8'), outputs: { parsed: { ...parsed, markdownObjectKey: key } } };
    });
  };
}

/** What the parse charged beyond its markdown (a parsing service's images), charged again with the new markdown. */
async function imagesCharged(deps: ActivityDeps, input: StageInput, markdown: string): Promise<number> {
  const produced = Number((await findDocument(deps.db, input.documentId))?.produced_bytes ?? 0);
  return Math.max(0, produced - Buffer.byteLength(markdown, 'utf8'));
}

async function readParsed(deps: ActivityDeps, key: string): Promise<string> {
  return orTransient('PARSE_ENGINE_FAILED', 'reading the parsed markdown', async () => {
    try {
      return await deps.objects.getText(key);
    } catch (error) {
      // Parsing again is the only way back: a new task (an admin retry) starts CLEANING over.
      if (error instanceof ObjectNotFoundError)
        throw permanentError('PARSE_ENGINE_FAILED', `the parsed markdown ${key} is missing`);
      throw error;
    }
  });
}

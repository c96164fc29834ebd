import { pageProgressReporter } from '../heartbeat';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { StageInput, StageResult } from '../../contracts/ingest';
import type { OcrPageReport } from '../../contracts/ocrPages';
import { permanentError } from '../../contracts/sluiceError';
import { detectFileType } from '../../parsers/detectFileType';
import { getTask, predecessorWithoutMarkdown } from '../../db/repositories/tasks';
import { isMailType } from '../../contracts/mailAttachments';
import { registerMailAttachments } from './mailAttachments';
import { objectKeys } from '../../stores/objectKeys';
import { parserBackendFor } from '../../contracts/datasetSettings';
import { findDatasetSettings } from '../../db/repositories/datasetSettings';
import { recordParse } from '../../db/repositories/parsedOutputs';
import type { StageOutputs, StartedStage } from '../../db/repositories/stageTransitions';
import { storeEmbeddedImages } from './embeddedImages';
import { chargeProducedBytes } from './producedBytesQuota';
import { parseFactsOf } from './parseFacts';
import { setParseFacts } from '../../db/repositories/documentFields';
import { parseWithService } from './serviceParse';
import type { ActivityDeps } from '../deps';
import { downloadSource, readHead } from './sourceDownload';
import { runStage } from './stageTemplate';
import { orTransient } from '../transient';

/** What CLEANING records with its SUCCESS: the parse's type, markdown object, time and OCR'd pages. */
export type ParsedDocument = NonNullable<StageOutputs['parsed']>;

/**
 * CLEANING: source object → temp file → detected type → markdown object; or, for a file type the
 * dataset sends to the parsing service, the service's markdown (activities/stages/serviceParse.ts).
 */
export function createCleaningActivity(deps: ActivityDeps) {
  return async function cleaning(input: StageInput): Promise<StageResult> {
    let detectedType: string | null = null;
    const result = await runStage(deps, input, 'CLEANING', async (started) => {
      const parsed = await parseAndStore(deps, input, started, { keepImages: false });
      detectedType = parsed.document.detectedType;
      return { items: parsed.bytes, outputs: { parsed: parsed.document } };
    });
    return withMailFlag(deps, input, result, detectedType);
  };
}

/**
 * Marks the CLEANING of a mail file, so the run starts its attachments' runs; a CLEANING that had
 * already succeeded (an activity retried after its answer was lost) reads the type it recorded.
 */
async function withMailFlag<R extends StageResult>(
  deps: ActivityDeps,
  input: StageInput,
  result: R,
  detectedType: string | null,
): Promise<R> {
  const type = result.skipped ? (await getTask(deps.db, input.taskId)).detected_type : detectedType;
  return isMailType(type) ? { ...result, mail: true } : result;
}

/**
 * A run started before the parse was recorded on the task got it back in parseForEnrichment's
 * result, which its history keeps; the workflow hands that on (workflows/stageCalls.ts).
 */
export type ParseForEnrichmentResult = StageResult & { parsed?: ParsedDocument };

/**
 * CLEANING's first part in a run whose dataset asks a model to enrich the markdown: the same parse
 * and stored markdown, but the stage stays open; enrichMarkdown, on the rate-limited enrichment
 * queue, finishes it (activities/stages/enrichMarkdown.ts). What it parsed is recorded on the task (the
 * OCR report can be tens of kilobytes: not for the workflow's history), where enrichMarkdown
 * reads it.
 */
export function createParseForEnrichmentActivity(deps: ActivityDeps) {
  return async function parseForEnrichment(input: StageInput): Promise<ParseForEnrichmentResult> {
    let detectedType: string | null = null;
    const result = await runStage(
      deps,
      input,
      'CLEANING',
      async (started) => {
        const stored = await parseAndStore(deps, input, started, { keepImages: true });
        await recordParse(deps.db, input.taskId, stored.document);
        detectedType = stored.document.detectedType;
        return stored.bytes;
      },
      { leaveOpen: true },
    );
    return withMailFlag(deps, input, result, detectedType);
  };
}

/**
 * Parses the task's source and stores its markdown, charged to the user's quota; returns what it
 * recorded. Only a run that ends with enrichMarkdown keeps a package's pictures, and only when the
 * dataset has images described: a plain CLEANING writes what it always did.
 */
async function parseAndStore(
  deps: ActivityDeps,
  input: StageInput,
  started: StartedStage,
  options: { keepImages: boolean },
): Promise<{ document: ParsedDocument; bytes: number }> {
  if (started.sizeBytes > deps.settings.maxFileBytes) {
    throw permanentError(
      'FILE_TOO_LARGE',
      `${started.sizeBytes} bytes exceeds the limit of ${deps.settings.maxFileBytes}`,
    );
  }
  const parseStarted = Date.now();
  await dropPredecessorMarkdown(deps, input);
  const settings = await findDatasetSettings(deps.db, input);
  const parsed =
    parserBackendFor(settings, started.fileType) === 'service'
      ? { detectedType: started.fileType, ocrPages: [], ...(await parseWithService(deps, input, started)) }
      : {
          ...(await parseBuiltIn(
            deps,
            input,
            started,
            options.keepImages && settings.enrichment?.imageDescriptions === true,
          )),
          imageBytes: 0,
        };
  const key = await storeMarkdown(deps, input, parsed.markdown, parsed.imageBytes);
  await setParseFacts(deps.db, input.documentId, parseFactsOf(parsed.markdown));
  return {
    document: {
      detectedType: parsed.detectedType,
      markdownObjectKey: key,
      parseMs: Date.now() - parseStarted,
      ocrPages: parsed.ocrPages,
    },
    bytes: Buffer.byteLength(parsed.markdown, 'utf8'),
  };
}

/**
 * The task's markdown object, written once its bytes fit the user's quota, with `alsoProduced`
 * (the images a parsing service returned) counted beside them; returns its key.
 */
export async function storeMarkdown(
  deps: ActivityDeps,
  input: StageInput,
  markdown: string,
  alsoProduced = 0,
): Promise<string> {
  const what = alsoProduced > 0 ? 'markdown and images' : 'markdown';
  await chargeProducedBytes(deps, input, Buffer.byteLength(markdown, 'utf8') + alsoProduced, what);
  const key = objectKeys.markdown(input.userId, input.documentId, input.taskId);
  await orTransient('PARSED_FILE_UPLOAD_FAILED', 'storing markdown', () => deps.objects.putText(key, markdown));
  return key;
}

/**
 * The built-in parsers: the source streamed to a temp file, its type detected, parsed in the CPU
 * pool. A dataset that has images described keeps a package's pictures beside the markdown. A mail
 * file's attachments come out of the parse process as files in a folder beside the source, and
 * are registered as documents from there, one at a time (activities/stages/mailAttachments.ts).
 */
async function parseBuiltIn(
  deps: ActivityDeps,
  input: StageInput,
  started: StartedStage,
  keepImages: boolean,
): Promise<{ detectedType: string; markdown: string; ocrPages: OcrPageReport[] }> {
  await fs.mkdir(deps.settings.tmpDir, { recursive: true });
  const tmpFile = path.join(deps.settings.tmpDir, `${input.taskId}-source`);
  const attachmentsDir = `${tmpFile}-attachments`;
  try {
    await downloadSource(deps, started.sourceObjectKey, tmpFile);
    const type = detectFileType(await readHead(tmpFile), started.fileName);
    const mail = isMailType(type);
    const parsed = await deps.cpu.parseDocument(
      tmpFile,
      type,
      { keepImages, ...(mail ? { attachments: { dir: attachmentsDir, documentId: input.documentId } } : {}) },
      pageProgressReporter(),
    );
    await storeEmbeddedImages(deps, input, tmpFile, parsed.images);
    if (mail) await registerMailAttachments(deps, input, parsed);
    return { detectedType: type, markdown: parsed.markdown, ocrPages: parsed.ocrPages };
  } finally {
    await fs.rm(tmpFile, { force: true });
    await fs.rm(attachmentsDir, { recursive: true, force: true });
  }
}

/**
 * A retried task whose predecessor's CLEANING failed after storing its markdown (Postgres went
 * away before the SUCCESS that records the key) would leave that object behind, referenced by no
 * row. It is removed before this task parses; a chain of such retries is cleaned one link each.
 */
async function dropPredecessorMarkdown(deps: ActivityDeps, input: StageInput): Promise<void> {
  const predecessor = await predecessorWithoutMarkdown(deps.db, input.taskId);
  if (!predecessor) return;
  // The markdown object, then the folder of its images: a store's prefix need not cut mid-name.
  await deps.objects.deletePrefix(objectKeys.markdown(input.userId, input.documentId, predecessor));
  await deps.objects.deletePrefix(objectKeys.parsedImagesOf(input.userId, input.documentId, predecessor));
}

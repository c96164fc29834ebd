import type { FastifyRequest } from 'fastify';
import type { SluiceConfig } from '../../config/config';
import { usageOf } from '../../db/repositories/documentCatalog';
import type { ApiContext } from '../context';
import { ApiError } from '../errors';
import { fieldText, metadataOfText } from '../metadataInput';
import type { Router } from '../router';
import {
  batchResultSchema,
  datasetParams,
  errorResponseSchema,
  uploadResultSchema,
  type BatchResult,
} from '../schemas';
import { cleanFileName } from '../../registration/fileName';
import { createTenantLimiter } from '../tenantLimiter';
import { budgetFor, currentBudget, discardPart, receiveFile, type UploadDeps } from '../receiveUpload';
import { generalParametersOf } from '../../chunker/uploadChoice';
import { datasetChunkingOf } from '../../db/repositories/datasetSettings';
import { choiceOfQuery, uploadChoiceQuery } from '../planSchemas';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

function multipartLimits(config: Readonly<SluiceConfig>, files: number) {
  return {
    // Our own meter enforces the real limit (which may be the smaller quota left); busboy's is a backstop.
    fileSize: config.maxFileBytes + 1,
    files,
    fields: 20,
    fieldSize: 4096,
    fieldNameSize: 100,
    parts: files + 20,
    headerPairs: 50,
  };
}

function requireMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) throw new ApiError(415, 'NOT_MULTIPART', 'send the file as multipart/form-data');
}

const fileBodySchema = (many: boolean) => ({
  type: 'object',
  properties: {
    [many ? 'files' : 'file']: many
      ? { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } }
      : { type: 'string', contentMediaType: 'application/octet-stream' },
  },
  required: [many ? 'files' : 'file'],
});

export function uploadRoutes(router: Router, ctx: ApiContext): void {
  // One budget for single and batch uploads: a batch holds one slot while it streams its parts.
  const uploads = createTenantLimiter('uploads', 'SLUICE_API_MAX_CONCURRENT_UPLOADS', ctx.config.api.perUser.uploads);
  const deps = (request: FastifyRequest): UploadDeps => ({
    db: ctx.adapters.db,
    objects: ctx.adapters.objects,
    client: ctx.client,
    config: ctx.config,
    metrics: ctx.metrics,
    log: request.log,
  });

  router.route({
    method: 'POST',
    path: '/v1/datasets/{datasetId}/documents',
    operationId: 'uploadDocument',
    summary: 'Upload one document and start its ingestion',
    description:
      'Streams the file into the object store (never buffered whole), refuses types that are not allowed from the first bytes, ' +
      'enforces the upload size limit and the per-user quota, and answers 202 as soon as the workflow is started. ' +
      'When the dataset already holds the same content, the existing document is returned with 200 and `duplicate: true`. ' +
      'A refused upload is answered without reading the rest of the body, and the connection is closed. ' +
      "The query may choose the document's chunking strategy and sizes, over the dataset's settings (a duplicate keeps its own).",
    tags: ['documents'],
    auth: true,
    params: datasetParams,
    querystring: uploadChoiceQuery,
    streamedBody: { contentType: 'multipart/form-data', schema: fileBodySchema(false), description: 'one file part' },
    responses: {
      202: { description: 'stored; ingestion started', schema: uploadResultSchema },
      200: {
        description: 'the same content is already in the dataset: the existing document',
        schema: uploadResultSchema,
      },
      400: errors(
        'no file part, a chunking choice outside the bounds (PLAN_VALIDATION_FAILED), or metadata past its bounds (METADATA_INVALID)',
      ),
      403: errors('per-user quota exceeded (QUOTA_EXCEEDED)'),
      413: errors('file over the upload limit (FILE_TOO_LARGE)'),
      415: errors('type not allowed (UNSUPPORTED_FILE_TYPE, LEGACY_OFFICE_FORMAT) or not multipart'),
      422: errors('empty file (EMPTY_DOCUMENT)'),
      429: errors('the caller has too many uploads in flight (TOO_MANY_CONCURRENT_REQUESTS)'),
      503: errors('the workflow engine is unavailable; nothing was kept'),
    },
    handler: async ({ request, reply, params, query, principal }) => {
      const { userId } = principal();
      requireMultipart(request);
      const chunkingChoice = await choiceOfQuery(query, generalParametersOf(ctx.config.chunking), () =>
        datasetChunkingOf(ctx.adapters.db, { userId, datasetId: params.datasetId }),
      );
      return uploads.run(userId, async () => {
        const budget = await currentBudget({ db: ctx.adapters.db, config: ctx.config }, userId).catch(
          (error: unknown) => {
            if (error instanceof ApiError) ctx.metrics.uploads.inc({ outcome: 'refused_quota' });
            throw error;
          },
        );
        const part = await request.file({ limits: multipartLimits(ctx.config, 1) });
        if (!part) throw new ApiError(400, 'NO_FILE', 'the request has no file part');
        const metadata = metadataOfText(fieldText(part.fields, 'metadata') ?? query.metadata);
        const outcome = await receiveFile(
          deps(request),
          { userId, datasetId: params.datasetId, chunkingChoice, ...(metadata ? { metadata } : {}) },
          part,
          budget,
        );
        if (!outcome.ok) throw outcome.error;
        return reply.code(outcome.httpStatus).send(outcome.result);
      });
    },
  });

  router.route({
    method: 'POST',
    path: '/v1/datasets/{datasetId}/documents:batch',
    operationId: 'uploadDocumentBatch',
    summary: 'Upload several documents; each succeeds or fails on its own',
    description:
      `Up to SLUICE_API_BATCH_MAX_FILES file parts. Each gets one result with the status a single upload would have answered. ` +
      'A refused type is skipped and the batch goes on; a file over the size limit or quota, or one file too many, stops the ' +
      'server from reading further: the results so far are returned with `complete: false` and the connection is closed.',
    tags: ['documents'],
    auth: true,
    params: datasetParams,
    querystring: uploadChoiceQuery,
    streamedBody: { contentType: 'multipart/form-data', schema: fileBodySchema(true), description: 'file parts' },
    responses: {
      207: { description: 'one result per file', schema: batchResultSchema },
      400: errors(
        'a chunking choice outside the bounds (PLAN_VALIDATION_FAILED), or metadata past its bounds (METADATA_INVALID)',
      ),
      415: errors('not multipart'),
      429: errors('the caller has too many uploads in flight (TOO_MANY_CONCURRENT_REQUESTS)'),
    },
    handler: async ({ request, reply, params, query, principal }) => {
      const { userId } = principal();
      requireMultipart(request);
      const chunkingChoice = await choiceOfQuery(query, generalParametersOf(ctx.config.chunking), () =>
        datasetChunkingOf(ctx.adapters.db, { userId, datasetId: params.datasetId }),
      );
      const metadata = metadataOfText(query.metadata);
      return uploads.run(userId, async () => {
        const max = ctx.config.api.batchMaxFiles;
        const usage = await usageOf(ctx.adapters.db, userId);
        const results: BatchResult['results'] = [];
        let complete = true;
        let index = 0;
        for await (const part of request.parts({ limits: multipartLimits(ctx.config, max + 1) })) {
          if (part.type !== 'file') continue;
          const fileName = cleanFileName(part.filename);
          const refused = (error: ApiError) =>
            results.push({
              index,
              fileName,
              httpStatus: error.statusCode,
              document: null,
              error: { code: error.code, message: error.message },
            });
          if (index >= max) {
            refused(new ApiError(413, 'TOO_MANY_FILES', `a batch takes at most ${max} files`));
            complete = false;
            break;
          }
          let outcome;
          try {
            outcome = await receiveFile(
              deps(request),
              { userId, datasetId: params.datasetId, chunkingChoice, ...(metadata ? { metadata } : {}) },
              part,
              budgetFor(ctx.config, usage),
            );
          } catch (error) {
            if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
            // Quota used up before this file: nothing of it was read.
            outcome = { ok: false as const, httpStatus: error.statusCode, error, unread: true };
          }
          if (outcome.ok) {
            results.push({ index, fileName, httpStatus: outcome.httpStatus, document: outcome.result, error: null });
            if (!outcome.result.duplicate) {
              usage.documents += 1;
              usage.bytes += outcome.result.sizeBytes;
            }
          } else {
            refused(outcome.error);
            // A refused type was read only as far as its first bytes: skip the rest of it, within
            // the size limit, and go on. Anything over a limit ends the batch unread.
            const canSkip = outcome.error.statusCode === 415 || outcome.error.statusCode === 422;
            if (outcome.unread && !(canSkip && (await discardPart(part.file, ctx.config.maxFileBytes)))) {
              complete = false;
              break;
            }
          }
          index += 1;
        }
        return reply.code(207).send({ results, complete });
      });
    },
  });
}

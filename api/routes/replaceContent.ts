import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { replaceDocumentContent } from '../../client/replaceContent';
import { cleanFileName } from '../../registration/fileName';
import type { ApiContext } from '../context';
import { ApiError, notFound } from '../errors';
import { statusOfRefusal } from '../receiveUpload';
import type { Router } from '../router';
import { documentParams, errorResponseSchema } from '../schemas';
import { createTenantLimiter } from '../tenantLimiter';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

const replaceResultSchema = z.object({
  documentId: z.string(),
  taskId: z
    .string()
    .describe('the run ingesting the new content, or the task that built what is served when unchanged'),
  unchanged: z.boolean().describe('true: the content is what the document already serves; nothing was started'),
  replaceOfTaskId: z.string().optional().describe('the task the run takes over'),
  sizeBytes: z.number().optional(),
});

function requireMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) throw new ApiError(415, 'NOT_MULTIPART', 'send the file as multipart/form-data');
}

/** Replaces a document's content in place (client/replaceContent.ts, docs/sources.md). */
export function replaceContentRoutes(router: Router, ctx: ApiContext): void {
  // Shares the upload budget's purpose: one replacement streaming per caller slot.
  const uploads = createTenantLimiter(
    'replacements',
    'SLUICE_API_MAX_CONCURRENT_UPLOADS',
    ctx.config.api.perUser.uploads,
  );
  const deps = { db: ctx.adapters.db, objects: ctx.adapters.objects, client: ctx.client, config: ctx.config };

  router.route({
    method: 'PUT',
    path: '/v1/documents/{id}/content',
    operationId: 'replaceDocumentContent',
    summary: "Replace a document's content, keeping its id",
    description:
      "Streams the new file like an upload (type, size and quota checked, the quota less the document's current size). " +
      'A durable run ingests it as a new chunk set beside the served one and switches search to it atomically when it succeeds; ' +
      'only chunks whose text changed are embedded again, for every vector kind. The same content as served answers 200 with `unchanged: true`. ' +
      "A failed document's run that waits for a retry is cancelled first.",
    tags: ['documents'],
    auth: true,
    params: documentParams,
    streamedBody: {
      contentType: 'multipart/form-data',
      schema: {
        type: 'object',
        properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
        required: ['file'],
      },
      description: "one file part; its file name becomes the document's",
    },
    responses: {
      202: { description: 'stored; the replacing run started', schema: replaceResultSchema },
      200: { description: 'the same content is already served', schema: replaceResultSchema },
      400: errors('no file part'),
      403: errors('per-user quota exceeded (QUOTA_EXCEEDED)'),
      404: errors('no such document for this user'),
      409: errors('a run is working on the document, or it is being deleted (DOCUMENT_BUSY)'),
      413: errors('file over the upload limit (FILE_TOO_LARGE)'),
      415: errors('type not allowed (UNSUPPORTED_FILE_TYPE, LEGACY_OFFICE_FORMAT) or not multipart'),
      422: errors('empty file (EMPTY_DOCUMENT)'),
    },
    handler: async ({ request, reply, params, principal }) => {
      const { userId } = principal();
      requireMultipart(request);
      return uploads.run(userId, async () => {
        const part = await request.file({ limits: { fileSize: ctx.config.maxFileBytes + 1, files: 1, fields: 5 } });
        if (!part) throw new ApiError(400, 'NO_FILE', 'the request has no file part');
        const outcome = await replaceDocumentContent(deps, { userId }, params.id, {
          ...(part.filename ? { fileName: cleanFileName(part.filename) } : {}),
          body: part.file,
        });
        if (outcome.kind === 'not-found') throw notFound();
        if (outcome.kind === 'busy') throw new ApiError(409, 'DOCUMENT_BUSY', outcome.reason);
        if (outcome.kind === 'refused') {
          const status = statusOfRefusal(outcome.refusal);
          throw new ApiError(status, outcome.refusal.code, outcome.refusal.message);
        }
        if (outcome.kind === 'unchanged')
          return reply.code(200).send({ documentId: outcome.documentId, taskId: outcome.taskId, unchanged: true });
        const { kind: _started, ...started } = outcome;
        return reply.code(202).send({ ...started, unchanged: false });
      });
    },
  });
}

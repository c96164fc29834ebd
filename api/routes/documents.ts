import { listDatasets, usageOf, findUserDocument } from '../../db/repositories/documentCatalog';
import { retryDocument, RetryRefusedError } from '../../client/documentAdmin';
import type { ApiContext } from '../context';
import { decodeCursor, encodeCursor, loadDocumentView, loadDocumentViews } from '../documentViews';
import { ApiError, notFound } from '../errors';
import type { Router } from '../router';
import {
  datasetParams,
  datasetsResponseSchema,
  deleteAcceptedSchema,
  documentPageSchema,
  documentParams,
  documentViewSchema,
  errorResponseSchema,
  listDocumentsQuery,
  metadataPatchBody,
  metadataPatchedSchema,
  retryAcceptedSchema,
} from '../schemas';
import { startDeletion, startFieldsCopy } from '../workflows';
import { MetadataInvalid, patchDocumentMetadata } from '../../db/repositories/documentFields';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

/** Reads, retries and deletes. Another user's document is indistinguishable from a missing one. */
export function documentRoutes(router: Router, ctx: ApiContext): void {
  const { db } = ctx.adapters;

  async function ownedDocument(userId: string, documentId: string) {
    const doc = await findUserDocument(db, userId, documentId);
    if (!doc) throw notFound();
    return doc;
  }

  router.route({
    method: 'GET',
    path: '/v1/datasets',
    operationId: 'listDatasets',
    summary: "The caller's datasets with document counts, and the caller's quota usage",
    tags: ['datasets'],
    auth: true,
    responses: { 200: { description: 'datasets', schema: datasetsResponseSchema } },
    handler: async ({ principal }) => {
      const { userId } = principal();
      const [datasets, usage] = await Promise.all([listDatasets(db, userId), usageOf(db, userId)]);
      return {
        datasets,
        usage: { ...usage, maxDocuments: ctx.config.quota.maxDocuments, maxBytes: ctx.config.quota.maxBytes },
      };
    },
  });

  router.route({
    method: 'GET',
    path: '/v1/datasets/{datasetId}/documents',
    operationId: 'listDocuments',
    summary: 'Documents of a dataset, newest first, paged, optionally filtered by pipeline status',
    tags: ['documents'],
    auth: true,
    params: datasetParams,
    querystring: listDocumentsQuery,
    responses: {
      200: { description: 'a page of documents', schema: documentPageSchema },
      400: errors('bad cursor or filter'),
    },
    handler: async ({ params, query, principal }) => {
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (after === null) throw new ApiError(400, 'VALIDATION_FAILED', 'cursor is not one this server issued');
      const { rows, views } = await loadDocumentViews(db, ctx.config, {
        userId: principal().userId,
        datasetId: params.datasetId,
        status: query.status,
        after,
        limit: query.limit + 1,
      });
      const more = rows.length > query.limit;
      const last = rows[query.limit - 1];
      return { documents: views.slice(0, query.limit), nextCursor: more && last ? encodeCursor(last) : null };
    },
  });

  router.route({
    method: 'GET',
    path: '/v1/documents/{id}',
    operationId: 'getDocument',
    summary: 'Lifecycle, pipeline status, each stage with its duration, chunk progress and failure',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    responses: {
      200: { description: 'the document', schema: documentViewSchema },
      404: errors('no such document for this user'),
    },
    handler: async ({ params, principal }) => {
      const view = await loadDocumentView(db, ctx.config, principal().userId, params.id);
      if (!view) throw notFound();
      return view;
    },
  });

  router.route({
    method: 'PATCH',
    path: '/v1/documents/{id}/metadata',
    operationId: 'patchDocumentMetadata',
    summary: "Change a document's metadata: no re-parsing, no re-embedding",
    description:
      'Search filters on Postgres see the change at once; the copies OpenSearch and Qdrant filter on follow in a background workflow, within seconds.',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    body: metadataPatchBody,
    exactBody: true,
    responses: {
      200: { description: 'the metadata after the change', schema: metadataPatchedSchema },
      400: errors('the result would break the bounds of metadata (METADATA_INVALID)'),
      404: errors('no such document for this user, or it is being deleted'),
    },
    handler: async ({ params, body, principal }) => {
      let fields;
      try {
        fields = await patchDocumentMetadata(db, principal(), params.id, body);
      } catch (error) {
        if (error instanceof MetadataInvalid) throw new ApiError(400, 'METADATA_INVALID', error.message);
        throw error;
      }
      if (!fields) throw notFound();
      const { workflowId } = await startFieldsCopy(ctx.client, ctx.config, params.id, fields.version);
      return {
        documentId: params.id,
        metadata: fields.metadata,
        metadataVersion: fields.version,
        updatedAt: String(fields.system.updatedAt),
        copyWorkflowId: workflowId,
      };
    },
  });

  router.route({
    method: 'POST',
    path: '/v1/documents/{id}/retry',
    operationId: 'retryDocument',
    summary: 'Retry a failed document from the first stage that did not succeed',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    responses: {
      202: { description: 'retry accepted: a new task takes over the failed one', schema: retryAcceptedSchema },
      404: errors('no such document for this user'),
      409: errors('refused (RETRY_VALIDATION_FAILED): nothing failed, already retried, being deleted...'),
    },
    handler: async ({ reply, params, principal }) => {
      await ownedDocument(principal().userId, params.id);
      try {
        const accepted = await retryDocument({ client: ctx.client, db, config: ctx.config }, params.id);
        return reply.code(202).send({ documentId: params.id, taskId: accepted.taskId, via: accepted.via });
      } catch (error) {
        if (!(error instanceof RetryRefusedError)) throw error;
        throw new ApiError(409, error.code, error.message.replace(/^RETRY_VALIDATION_FAILED:\s*/, ''));
      }
    },
  });

  router.route({
    method: 'DELETE',
    path: '/v1/documents/{id}',
    operationId: 'deleteDocument',
    summary: 'Delete a document durably (vectors, keyword entries, objects, rows) in a background workflow',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    responses: {
      202: { description: 'deletion started (or already running)', schema: deleteAcceptedSchema },
      404: errors('no such document for this user'),
    },
    handler: async ({ reply, params, principal }) => {
      const userId = principal().userId;
      await ownedDocument(userId, params.id);
      const started = await startDeletion(ctx.client, ctx.config, { documentId: params.id, userId });
      return reply.code(202).send({ documentId: params.id, ...started });
    },
  });
}

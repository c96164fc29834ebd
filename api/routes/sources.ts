import { z } from 'zod';
import {
  addSource,
  changeSource,
  InvalidSourceError,
  ownSource,
  pauseSource,
  removeSource,
  sourcesWithNextRun,
  triggerSync,
} from '../../client/sources';
import type { SourceSchedule } from '../../contracts/sources';
import type { ApiContext } from '../context';
import { ApiError, notFound } from '../errors';
import type { Router } from '../router';
import { datasetParams, errorResponseSchema } from '../schemas';
import {
  newSourceBody,
  removeSourceQuery,
  sourceParams,
  sourcePatchBody,
  sourceSchema,
  sourceView,
} from '../sourceSchemas';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

/** Sources a dataset follows (docs/sources.md): added, listed, paused, synced now, removed. */
export function sourceRoutes(router: Router, ctx: ApiContext): void {
  const deps = { client: ctx.client, db: ctx.adapters.db, config: ctx.config };
  const tags = ['sources'];
  const owned = async (userId: string, id: string) => {
    const row = await ownSource(deps, userId, id);
    if (!row) throw notFound();
    return row;
  };

  router.route({
    method: 'POST',
    path: '/v1/datasets/{datasetId}/sources',
    operationId: 'addSource',
    summary: 'Follow a folder, S3 prefix, git repository or website: synced on a Temporal Schedule',
    description:
      'The first sync starts at once; later ones every interval or by cron, never two at a time. New files are ingested, changed ones replaced in place, vanished ones deleted.',
    tags,
    auth: true,
    params: datasetParams,
    body: newSourceBody,
    responses: {
      201: { description: 'added; its first sync started', schema: sourceSchema },
      400: errors('settings, schedule or secret refused (SOURCE_INVALID)'),
    },
    handler: async ({ reply, params, body, principal }) => {
      try {
        const row = await addSource(
          deps,
          { userId: principal().userId, datasetId: params.datasetId },
          {
            kind: body.kind,
            settings: body.settings,
            schedule: body.schedule as SourceSchedule,
            ...(body.secret !== undefined ? { secret: body.secret } : {}),
          },
        );
        return reply.code(201).send(sourceView(row));
      } catch (error) {
        if (error instanceof InvalidSourceError) throw new ApiError(400, 'SOURCE_INVALID', error.message);
        throw error;
      }
    },
  });

  router.route({
    method: 'GET',
    path: '/v1/datasets/{datasetId}/sources',
    operationId: 'listSources',
    summary: "A dataset's sources, each with its last sync's report and its next run",
    tags,
    auth: true,
    params: datasetParams,
    responses: { 200: { description: 'the sources', schema: z.object({ sources: z.array(sourceSchema) }) } },
    handler: async ({ params, principal }) => ({
      sources: (await sourcesWithNextRun(deps, principal().userId, params.datasetId)).map((s) =>
        sourceView(s.row, s.nextRunAt),
      ),
    }),
  });

  router.route({
    method: 'PATCH',
    path: '/v1/sources/{id}',
    operationId: 'changeSource',
    summary: 'Change a source: pause or resume its Schedule, its settings, secret or schedule',
    description:
      'The next sync follows new settings: paths they no longer list are deleted like files gone from the source.',
    tags,
    auth: true,
    params: sourceParams,
    body: sourcePatchBody,
    responses: {
      200: { description: 'the source', schema: sourceSchema },
      400: errors('settings, schedule or secret refused (SOURCE_INVALID)'),
      404: errors('no such source'),
    },
    handler: async ({ params, body, principal }) => {
      let row = await owned(principal().userId, params.id);
      const { paused, ...change } = body;
      try {
        if (Object.keys(change).length > 0)
          row = await changeSource(deps, row, {
            ...(change.settings !== undefined ? { settings: change.settings } : {}),
            ...(change.secret !== undefined ? { secret: change.secret } : {}),
            ...(change.schedule !== undefined ? { schedule: change.schedule as SourceSchedule } : {}),
          });
      } catch (error) {
        if (error instanceof InvalidSourceError) throw new ApiError(400, 'SOURCE_INVALID', error.message);
        throw error;
      }
      if (paused !== undefined) {
        await pauseSource(deps, row, paused);
        row = { ...row, paused };
      }
      return sourceView(row);
    },
  });

  router.route({
    method: 'POST',
    path: '/v1/sources/{id}/sync',
    operationId: 'syncSource',
    summary: 'Sync a source now (skipped while a sync runs)',
    tags,
    auth: true,
    params: sourceParams,
    responses: {
      202: { description: 'triggered', schema: z.object({ triggered: z.boolean() }) },
      404: errors('no such source'),
    },
    handler: async ({ reply, params, principal }) => {
      await triggerSync(deps, await owned(principal().userId, params.id));
      return reply.code(202).send({ triggered: true });
    },
  });

  router.route({
    method: 'DELETE',
    path: '/v1/sources/{id}',
    operationId: 'removeSource',
    summary: 'Stop following a source; its documents are deleted unless keepDocuments=true',
    tags,
    auth: true,
    params: sourceParams,
    querystring: removeSourceQuery,
    responses: {
      202: { description: 'removed; its documents are being deleted', schema: z.object({ deleting: z.number() }) },
      404: errors('no such source'),
    },
    handler: async ({ reply, params, query, principal }) => {
      const row = await owned(principal().userId, params.id);
      return reply.code(202).send(await removeSource(deps, row, { keepDocuments: query.keepDocuments === 'true' }));
    },
  });
}

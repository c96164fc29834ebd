import { z } from 'zod';
import { datasetSettingsPatchSchema, datasetSettingsSchema } from '../../contracts/datasetSettings';
import { changeDatasetSettings, DatasetSettingsError, showDatasetSettings } from '../../client/datasetSettings';
import type { ApiContext } from '../context';
import { ApiError } from '../errors';
import type { Router } from '../router';
import { datasetParams, errorResponseSchema } from '../schemas';

const settingsResponse = z.object({ datasetId: z.string(), settings: datasetSettingsSchema });

export function datasetRoutes(router: Router, ctx: ApiContext): void {
  const db = ctx.adapters.db;
  const tags = ['datasets'];

  router.route({
    method: 'GET',
    path: '/v1/datasets/{datasetId}/settings',
    operationId: 'getDatasetSettings',
    summary: "The dataset's own settings; a section that is absent takes the deployment's defaults",
    tags,
    auth: true,
    params: datasetParams,
    responses: { 200: { description: 'the settings', schema: settingsResponse } },
    handler: async ({ params, principal }) => ({
      datasetId: params.datasetId,
      settings: await showDatasetSettings(db, { userId: principal().userId, datasetId: params.datasetId }),
    }),
  });

  router.route({
    method: 'PUT',
    path: '/v1/datasets/{datasetId}/settings',
    operationId: 'putDatasetSettings',
    summary: "Change the dataset's settings, section by section",
    description:
      'Each section in the body replaces the stored one; a section set to null goes back to the defaults; a section not named is kept. Documents ingested from then on use the new settings.',
    tags,
    auth: true,
    params: datasetParams,
    body: datasetSettingsPatchSchema,
    responses: {
      200: { description: 'the settings now stored', schema: settingsResponse },
      400: { description: 'the settings are invalid', schema: errorResponseSchema },
    },
    handler: async ({ params, body, principal }) => {
      try {
        const ref = { userId: principal().userId, datasetId: params.datasetId };
        return { datasetId: params.datasetId, settings: await changeDatasetSettings(db, ref, body) };
      } catch (error) {
        if (error instanceof DatasetSettingsError) throw new ApiError(400, 'INVALID_DATASET_SETTINGS', error.message);
        throw error;
      }
    },
  });
}

import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { SluiceConfig } from '../../config/config';
import { packageRoot } from '../../config/packageRoot';
import { hybridSearch } from '../../search/hybridSearch';
import type { Adapters } from '../../composition/adapters';
import { ingestFiles } from './ingestFiles';
import { formatHits } from './formatHits';

const SAMPLES_DIR = path.join(packageRoot(), 'samples');
const DEMO_QUERIES = [
  'how does a retry resume from a checkpoint',
  'reciprocal rank fusion of keyword and vector search',
  '向量检索',
  // Answered by the scanned samples, whose text only OCR can read.
  'debmake command generated template files',
  '维护者 软件包',
];

/** Ingests the repository's sample documents into a fresh dataset and prints search hits. */
export async function runDemo(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  client: Client,
  userId: string,
): Promise<boolean> {
  const files = fs
    .readdirSync(SAMPLES_DIR)
    // Dotfiles are notes about the samples (a licence), not samples.
    .filter((f) => !f.startsWith('.'))
    .map((f) => path.join(SAMPLES_DIR, f));
  const datasetId = `demo-${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
  console.log(`ingesting ${files.length} sample documents into dataset ${datasetId}`);
  const results = await ingestFiles(config, adapters, client, files, { userId, datasetId });
  for (const query of DEMO_QUERIES) {
    console.log(`\nsearch: ${query}`);
    const hits = await hybridSearch(adapters, { userId, datasetId }, query, 3);
    console.log(formatHits(hits));
  }
  console.log(`\nWeb UI: ${config.temporal.uiUrl}/namespaces/${config.temporal.namespace}/workflows`);
  return results.every((r) => r.status === 'SUCCESS');
}

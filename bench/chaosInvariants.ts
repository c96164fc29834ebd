import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Adapters } from '../composition/adapters';
import type { SluiceConfig } from '../config/config';
import type { CpuPool } from '../cpuPool/pool';
import type { Database } from '../db/database';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';
import { DETECTION_HEAD_BYTES, detectFileType } from '../parsers/detectFileType';
import { objectKeys } from '../stores/objectKeys';
import { chunkPrints, storeMismatches, windowMismatches, type ChunkPrint } from '../testkit/fixtures/chunkFingerprint';
import { pipelineChunks } from './pipelineChunks';
import type { ChaosFile } from './chaosCorpus';

export interface SoakDocument extends ChaosFile {
  documentId: string;
}

const sha = (print: ChunkPrint) => `${print.index}:${print.kind}:${print.id}:${print.textSha256}`;

/**
 * A clean run's chunks of one document, computed here with the worker's own code (the CPU pool's
 * parse, plan and chunk, the worker's chunking settings): what the faulted run must end with.
 */
export async function cleanChunks(
  cpu: CpuPool,
  config: Readonly<SluiceConfig>,
  doc: SoakDocument,
  tmpDir: string,
): Promise<ChunkPrint[]> {
  const file = path.join(tmpDir, `${doc.documentId}-clean`);
  await fs.writeFile(file, doc.bytes);
  try {
    const type = detectFileType(doc.bytes.subarray(0, DETECTION_HEAD_BYTES), doc.fileName);
    const markdown = await cpu.parse(file, type);
    const drafts = await pipelineChunks(cpu, config, doc.documentId, markdown, type);
    return drafts.map((d) => ({
      index: d.chunkIndex,
      kind: d.kind,
      id: d.chunkId,
      textSha256: createHash('sha256').update(d.text).digest('hex'),
    }));
  } finally {
    await fs.rm(file, { force: true });
  }
}

/** Keys the document's rows reference: its source, and each task's markdown and token plan. */
async function referencedKeys(db: Kysely<Database>, documentIds: string[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (let i = 0; i < documentIds.length; i += 500) {
    const slice = documentIds.slice(i, i + 500);
    const docs = await db.selectFrom('documents').select('source_object_key').where('id', 'in', slice).execute();
    for (const d of docs) keys.add(d.source_object_key);
    const tasks = await db
      .selectFrom('parse_tasks')
      .select(['markdown_object_key', 'token_plan_object_key'])
      .where('document_id', 'in', slice)
      .execute();
    for (const t of tasks) for (const key of [t.markdown_object_key, t.token_plan_object_key]) if (key) keys.add(key);
  }
  return keys;
}

/** The vector tables every child has a row in: the second dense vector's too where it runs (SLUICE_LANGUAGE_DENSE). */
function vectorTables(adapters: Adapters): ('dense_vectors' | 'language_dense_vectors' | 'sparse_vectors')[] {
  return adapters.languageEmbedders
    ? ['dense_vectors', 'language_dense_vectors', 'sparse_vectors']
    : ['dense_vectors', 'sparse_vectors'];
}

/** Where one document breaks an invariant; empty when it ended exactly as a clean run. */
async function documentViolations(adapters: Adapters, doc: SoakDocument, expected: ChunkPrint[]): Promise<string[]> {
  const label = `${doc.fileName} (${doc.documentId})`;
  const row = await findDocument(adapters.db, doc.documentId);
  const pipeline = row?.last_task_id ? await findPipeline(adapters.db, row.last_task_id) : undefined;
  if (pipeline?.pipeline_status !== 'SUCCESS')
    return [
      `${label}: ended ${pipeline?.pipeline_status ?? 'without a task'} ${pipeline?.failure_reason ?? ''}`.trim(),
    ];
  const found: string[] = [];
  const actual = await chunkPrints(adapters.db, doc.documentId);
  const want = new Set(expected.map(sha));
  const got = new Set(actual.map(sha));
  const differing = [...want].filter((p) => !got.has(p)).length + [...got].filter((p) => !want.has(p)).length;
  if (differing > 0 || actual.length !== expected.length)
    found.push(
      `${label}: chunk set differs from a clean run's (${actual.length} vs ${expected.length}, ${differing} differ)`,
    );
  found.push(
    ...(await storeMismatches(adapters.db, doc.documentId, vectorTables(adapters))).map((m) => `${label}: ${m}`),
    ...(await windowMismatches(adapters.db, doc.documentId)).map((m) => `${label}: ${m}`),
  );
  const children = expected.filter((p) => p.kind === 'child').length;
  const keyword = await adapters.keywords.countForDocument(doc.documentId);
  if (keyword !== children) found.push(`${label}: ${keyword} keyword entries for ${children} chunks`);
  return found;
}

/**
 * The soak's invariants over every document: SUCCESS, the clean run's chunk set, one dense (and
 * second dense, where it runs), sparse and keyword entry per chunk and none without its chunk, no
 * passage window without its chunk, and every stored object
 * referenced by a row and every referenced object present.
 */
export async function checkInvariants(
  adapters: Adapters,
  docs: SoakDocument[],
  expected: Map<string, ChunkPrint[]>,
  userId: string,
): Promise<string[]> {
  const violations: string[] = [];
  for (const doc of docs)
    violations.push(...(await documentViolations(adapters, doc, expected.get(doc.documentId) ?? [])));
  const referenced = await referencedKeys(
    adapters.db,
    docs.map((d) => d.documentId),
  );
  const userPrefix = objectKeys.source(userId, 'x').replace(/x\/source$/, '');
  const stored = new Set<string>();
  for await (const page of adapters.objects.listOlderThan(userPrefix, new Date(Date.now() + 3_600_000)))
    for (const key of page) stored.add(key);
  for (const key of stored) if (!referenced.has(key)) violations.push(`object ${key} has no row`);
  for (const key of referenced) if (!stored.has(key)) violations.push(`row references missing object ${key}`);
  const known = new Set(docs.map((d) => d.documentId));
  for (const table of [...vectorTables(adapters), 'window_dense_vectors' as const]) {
    const owners = await adapters.db
      .selectFrom(table)
      .select('document_id')
      .distinct()
      .where('user_id', '=', userId)
      .execute();
    for (const o of owners)
      if (!known.has(o.document_id)) violations.push(`${table} of unknown document ${o.document_id}`);
  }
  return violations;
}

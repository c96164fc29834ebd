import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Postgres's binary COPY (`COPY ... FROM STDIN WITH (FORMAT binary)`) fed to psql's stdin: how
 * bench/searchDenseOnly.ts writes a million dense rows in minutes. A row is its fields, each
 * already in the binary form of its column's type; text fields are UTF-8 as they are.
 */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
/** Rows sent to psql at once. */
const BATCH = 500;

export const textField = (value: string): Buffer => Buffer.from(value, 'utf8');

export function int4Field(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

/** pgvector's `vector` (vector_recv): dimension, an unused int16, then float4 values. */
export function vectorField(values: ArrayLike<number>): Buffer {
  const buffer = Buffer.alloc(4 + 4 * values.length);
  buffer.writeInt16BE(values.length, 0);
  for (let i = 0; i < values.length; i += 1) buffer.writeFloatBE(values[i] as number, 4 + 4 * i);
  return buffer;
}

/** A one-dimensional `real[]` (array_recv): no nulls, element type float4 (oid 700), lower bound 1. */
export function realArrayField(values: ArrayLike<number>): Buffer {
  const buffer = Buffer.alloc(20 + 8 * values.length);
  [1, 0, 700, values.length, 1].forEach((v, i) => buffer.writeInt32BE(v, 4 * i));
  for (let i = 0; i < values.length; i += 1) {
    buffer.writeInt32BE(4, 20 + 8 * i);
    buffer.writeFloatBE(values[i] as number, 24 + 8 * i);
  }
  return buffer;
}

function encodeRow(fields: Buffer[]): Buffer[] {
  const count = Buffer.alloc(2);
  count.writeInt16BE(fields.length);
  return [count, ...fields.flatMap((field) => [int4Field(field.length), field])];
}

/** Copies `rows` into `table` (its `columns`, in order) through one psql process; rejects on psql's failure. */
export async function copyRows(url: string, table: string, columns: string[], rows: Iterable<Buffer[]>): Promise<void> {
  const statement = `COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT binary)`;
  const psql = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', statement], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const exited = once(psql, 'exit');
  const write = async (chunk: Buffer): Promise<void> => {
    if (!psql.stdin.write(chunk)) await once(psql.stdin, 'drain');
  };
  const header = Buffer.alloc(8);
  await write(Buffer.concat([SIGNATURE, header]));
  let pending: Buffer[] = [];
  let inBatch = 0;
  for (const row of rows) {
    pending.push(...encodeRow(row));
    inBatch += 1;
    if (inBatch === BATCH) {
      await write(Buffer.concat(pending));
      pending = [];
      inBatch = 0;
    }
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  await write(Buffer.concat([...pending, trailer]));
  psql.stdin.end();
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`psql COPY into ${table} exited with ${code}`);
}

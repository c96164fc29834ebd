import type { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../../contracts/sources';
import { includeFilter, SourceUnavailable, type SourceEntry, type SourceReader } from './sourceReader';

/** S3 errors that waiting will not fix: a wrong bucket, wrong credentials, no permission. */
const PERMANENT = new Set(['NoSuchBucket', 'AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch']);

function classified(error: unknown, what: string): never {
  if (error instanceof S3ServiceException) {
    throw new SourceUnavailable(`${what}: ${error.name}`, PERMANENT.has(error.name), { cause: error });
  }
  throw new SourceUnavailable(`${what}: ${(error as Error).message}`, false, { cause: error });
}

/**
 * A bucket and prefix of any S3-compatible store, listed with ListObjectsV2 in key order
 * (StartAfter the cursor). Credentials: the source's own (its secret key sealed in the row), or
 * the AWS default chain when it names none.
 */
export function createS3Source(settings: S3Settings, secretAccessKey: string | null): SourceReader {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && secretAccessKey !== null
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const prefix = settings.prefix;
  const included = includeFilter(settings.include);
  const name = `s3://${settings.bucket}/${prefix}`;
  return {
    name,
    async list(cursor, limit) {
      const out = await client
        .send(
          new ListObjectsV2Command({
            Bucket: settings.bucket,
            Prefix: prefix,
            MaxKeys: limit,
            ...(cursor !== null ? { StartAfter: `${prefix}${cursor}` } : {}),
          }),
        )
        .catch((error: unknown) => classified(error, `listing ${name}`));
      const entries: SourceEntry[] = (out.Contents ?? [])
        .filter((o) => o.Key !== undefined && !o.Key.endsWith('/'))
        .map((o) => ({
          path: (o.Key as string).slice(prefix.length),
          etag: o.ETag ?? null,
          mtime: o.LastModified ?? null,
          sizeBytes: o.Size ?? 0,
        }))
        .filter((e) => included(e.path));
      const last = out.Contents?.at(-1)?.Key;
      return { entries, next: out.IsTruncated && last ? last.slice(prefix.length) : null };
    },
    async metadataOf(p) {
      const out = await client
        .send(new HeadObjectCommand({ Bucket: settings.bucket, Key: `${prefix}${p}` }))
        .catch((error: unknown) => classified(error, `reading the metadata of ${p} of ${name}`));
      return out.Metadata ?? {};
    },
    async open(p): Promise<Readable> {
      const out = await client
        .send(new GetObjectCommand({ Bucket: settings.bucket, Key: `${prefix}${p}` }))
        .catch((error: unknown) => classified(error, `reading ${p} of ${name}`));
      return out.Body as Readable;
    },
  };
}

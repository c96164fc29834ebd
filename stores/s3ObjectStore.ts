import { pipeline, Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ObjectNotFoundError, type ObjectStore, type PartialWrite } from './ports';

export interface S3ObjectStoreOptions {
  /** Any S3-compatible server (SeaweedFS, MinIO, ...); omit for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  /**
   * Static keys; omit both to use the AWS SDK's default credential chain (environment, shared
   * profile, web identity / IRSA, ECS or EC2 instance role), as every AWS tool does.
   */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Defaults to true when an endpoint is given: self-hosted servers rarely have per-bucket DNS. */
  forcePathStyle?: boolean;
  /** Every key is stored under this prefix, so several deployments or test runs can share a bucket. */
  prefix?: string;
}

export type S3ObjectStore = ObjectStore & { ensureBucket(): Promise<void> };

// Multipart parts: 8 MiB (S3's minimum is 5 MiB) with at most 2 in flight, so one upload holds
// roughly queueSize * partSize in memory whatever the body's size. 10,000 parts cap an object
// at ~80 GiB, far above any document we ingest.
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
// DeleteObjects accepts at most 1000 keys, which is also ListObjectsV2's and
// ListMultipartUploads' page size.
const DELETE_BATCH = 1000;

/**
 * A 404 from S3 means the key is missing. GetObject names it NoSuchKey; HEAD responses have no
 * body, so HeadObject's error only has the status. A missing *bucket* is a deployment error, not
 * a missing object, so it is left to surface as itself.
 */
function isMissingKey(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/** Both keys or none: half a key pair would silently fall back to whatever the chain finds. */
function staticCredentials(options: S3ObjectStoreOptions) {
  const { accessKeyId, secretAccessKey } = options;
  if (accessKeyId === undefined && secretAccessKey === undefined) return undefined;
  if (accessKeyId === undefined || secretAccessKey === undefined)
    throw new Error('S3 object store: give both accessKeyId and secretAccessKey, or neither for the default chain');
  return { accessKeyId, secretAccessKey };
}

export function createS3ObjectStore(options: S3ObjectStoreOptions): S3ObjectStore {
  const { bucket } = options;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    // undefined: the SDK resolves credentials through its default chain on first use and
    // refreshes expiring ones (web identity, instance role) by itself.
    credentials: staticCredentials(options),
    forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
    // The SDK's default adds CRC checksums (and aws-chunked trailers on streams) to every
    // request; not every S3-compatible server understands them, so only send them where the
    // API requires one (DeleteObjects).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  const base = options.prefix ? options.prefix.replace(/\/*$/, '/') : '';
  const fullKey = (key: string) => base + key;

  async function getObject(key: string): Promise<GetObjectCommandOutput> {
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: fullKey(key) }));
    } catch (error) {
      if (isMissingKey(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async function deleteBatch(keys: string[]): Promise<void> {
    const result = await client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
    // DeleteObjects answers 200 even when some keys failed; the failures are only in the body.
    const failed = result.Errors ?? [];
    if (failed.length > 0) {
      const first = failed[0];
      throw new Error(
        `S3 DeleteObjects failed for ${failed.length} key(s), e.g. ${first?.Key}: ${first?.Code} ${first?.Message}`,
      );
    }
  }

  return {
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        return;
      } catch (error) {
        if (!(error instanceof S3ServiceException) || error.$metadata.httpStatusCode !== 404) throw error;
      }
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      } catch (error) {
        // Another process may have created it between our HEAD and CREATE.
        if (error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou') return;
        throw error;
      }
    },

    async putStream(key, body) {
      let sizeBytes = 0;
      // Counted inside the pipeline: a 'data' listener on the source would start it flowing
      // before Upload reads it, and the bytes emitted meanwhile would be lost.
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      // pipeline (not .pipe): an error in the source destroys the counter, so Upload fails and
      // aborts the multipart upload instead of completing a truncated object; and destroying the
      // counter when Upload fails releases the source (file handle, socket) too. Failures surface
      // through upload.done(), so the callback has nothing left to do.
      const counted = pipeline(body, counter, () => {});
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: fullKey(key), Body: counted },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        counted.destroy();
        throw error;
      }
      return { sizeBytes };
    },

    async putText(key, text) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: fullKey(key),
          Body: text,
          ContentType: 'text/plain; charset=utf-8',
        }),
      );
    },

    async getStream(key) {
      const { Body } = await getObject(key);
      // In Node the SDK's body is an http.IncomingMessage; anything else means a browser or
      // edge runtime build slipped in, which this worker cannot stream from.
      if (!(Body instanceof Readable)) throw new Error(`S3 GetObject for ${key} returned no Node stream`);
      return Body;
    },

    async presignGet(key, expiresInSeconds) {
      // Signed locally (no request): the URL is only as good as the credentials and the key.
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: fullKey(key) }), {
        expiresIn: expiresInSeconds,
      });
    },

    async getText(key) {
      const { Body } = await getObject(key);
      if (!Body) throw new Error(`S3 GetObject for ${key} returned no body`);
      return Body.transformToString('utf-8');
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: fullKey(key) }));
        return true;
      } catch (error) {
        if (isMissingKey(error)) return false;
        throw error;
      }
    },

    async deletePrefix(prefix) {
      // An empty prefix would match the whole bucket (or the whole store prefix): never what a
      // caller building prefixes from ids meant.
      if (prefix === '') throw new Error('deletePrefix needs a non-empty prefix');
      let deleted = 0;
      let continuationToken: string | undefined;
      // One page at a time (≤1000 keys = one DeleteObjects batch), so memory stays bounded
      // however many objects sit under the prefix.
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: fullKey(prefix),
            MaxKeys: DELETE_BATCH,
            ContinuationToken: continuationToken,
          }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [o.Key]));
        if (keys.length > 0) {
          await deleteBatch(keys);
          deleted += keys.length;
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      return deleted;
    },

    async *listOlderThan(prefix, before) {
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: fullKey(prefix),
            MaxKeys: DELETE_BATCH,
            ContinuationToken: continuationToken,
          }),
        );
        const keys = (page.Contents ?? []).flatMap((o) =>
          o.Key !== undefined && o.LastModified !== undefined && o.LastModified < before
            ? [o.Key.slice(base.length)]
            : [],
        );
        if (keys.length > 0) yield keys;
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },

    async *listPartialWrites(prefix, before) {
      // Multipart uploads that were never completed nor aborted (a process that died mid-upload):
      // their parts are stored, and billed, until someone aborts them. Only under the prefix: the
      // bucket may be shared with other writers, whose uploads in progress are theirs.
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      for (;;) {
        const page = await client.send(
          new ListMultipartUploadsCommand({
            Bucket: bucket,
            Prefix: fullKey(prefix) || undefined,
            MaxUploads: DELETE_BATCH,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        const writes = (page.Uploads ?? []).flatMap((u): PartialWrite[] =>
          u.Key !== undefined &&
          u.Key.startsWith(fullKey(prefix)) &&
          u.UploadId !== undefined &&
          u.Initiated !== undefined &&
          u.Initiated < before
            ? [{ key: u.Key.slice(base.length), id: u.UploadId, since: u.Initiated }]
            : [],
        );
        if (writes.length > 0) yield writes;
        // A truncated page without markers would list the same page forever.
        if (!page.IsTruncated || (page.NextKeyMarker === undefined && page.NextUploadIdMarker === undefined)) return;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    },

    async abortPartialWrite(write) {
      try {
        await client.send(
          new AbortMultipartUploadCommand({ Bucket: bucket, Key: fullKey(write.key), UploadId: write.id }),
        );
      } catch (error) {
        // Completed or aborted since it was listed: nothing left to drop.
        if (
          error instanceof S3ServiceException &&
          (error.name === 'NoSuchUpload' || error.$metadata.httpStatusCode === 404)
        )
          return;
        throw error;
      }
    },
  };
}

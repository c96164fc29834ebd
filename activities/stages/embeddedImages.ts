import { Readable } from 'node:stream';
import type { StageInput } from '../../contracts/ingest';
import type { EmbeddedImage } from '../../parsers/ooxml/embeddedImages';
import { ZipArchive } from '../../parsers/ooxml/zipArchive';
import { objectKeys } from '../../stores/objectKeys';
import type { ActivityDeps } from '../deps';
import { orTransient } from '../transient';

/**
 * Copies the pictures a built-in parse kept (parsers/ooxml/embeddedImages.ts) from the package on
 * disk into the task's images folder, where image descriptions read them as they read a parsing
 * service's. One picture at a time, inflated under the zip-bomb guard and read no further than
 * the vision size cap: a larger one is not stored, so its reference stays as it is.
 */
export async function storeEmbeddedImages(
  deps: ActivityDeps,
  input: StageInput,
  packageFile: string,
  images: readonly EmbeddedImage[],
): Promise<number> {
  if (images.length === 0) return 0;
  const cap = deps.enrichment.maxImageBytes;
  const archive = await ZipArchive.open(packageFile, deps.settings.maxUncompressedBytes);
  try {
    let stored = 0;
    for (const image of images) {
      const bytes = await archive.readBytes(image.part, cap + 1);
      if (!bytes || bytes.length > cap) continue;
      const key = objectKeys.parsedImage(input.userId, input.documentId, input.taskId, image.name);
      await orTransient('PARSED_FILE_UPLOAD_FAILED', 'storing a picture', () =>
        deps.objects.putStream(key, Readable.from([bytes])),
      );
      stored++;
    }
    return stored;
  } finally {
    archive.close();
  }
}

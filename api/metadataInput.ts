import { documentMetadataSchema, metadataProblem, type DocumentMetadata } from '../contracts/documentMetadata';
import { ApiError } from './errors';

/** An upload's metadata, given as JSON text (a query parameter or a multipart field); 400 METADATA_INVALID past the bounds. */
export function metadataOfText(text: string | undefined): DocumentMetadata | undefined {
  if (text === undefined || text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'METADATA_INVALID', 'metadata: not JSON');
  }
  const problem = metadataProblem(value);
  if (problem) throw new ApiError(400, 'METADATA_INVALID', problem);
  return documentMetadataSchema.parse(value);
}

/** The text of a multipart field sent before the file part, where there is one. */
export function fieldText(fields: Record<string, unknown> | undefined, name: string): string | undefined {
  const field = fields?.[name] as { type?: string; value?: unknown } | undefined;
  return field?.type === 'field' && typeof field.value === 'string' ? field.value : undefined;
}

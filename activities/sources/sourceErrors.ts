import { permanentError, transientError } from '../../contracts/sluiceError';
import { SourceUnavailable } from '../../stores/sources/sourceReader';

/** Runs a read of the source: its failures become SOURCE_UNAVAILABLE, permanent or retried. */
export async function readingSource<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof SourceUnavailable)) throw error;
    throw error.permanent
      ? permanentError('SOURCE_UNAVAILABLE', error.message, error)
      : transientError('SOURCE_UNAVAILABLE', error.message, error);
  }
}

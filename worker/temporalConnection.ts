import { NativeConnection } from '@temporalio/worker';
import { connectionFailure, connectionOptions } from '../config/temporalConnectionOptions';
import type { TemporalConnectionSettings } from '../config/temporalConnectionConfig';

/** The worker's connection: the same settings as every client's (client/temporalConnection.ts). */
export async function connectNative(settings: TemporalConnectionSettings): Promise<NativeConnection> {
  try {
    return await NativeConnection.connect(connectionOptions(settings));
  } catch (error) {
    throw connectionFailure(settings, error);
  }
}

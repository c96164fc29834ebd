import { Client, Connection } from '@temporalio/client';
import type { TemporalConfig, TemporalConnectionSettings } from '../config/temporalConnectionConfig';
import { connectionFailure, connectionOptions } from '../config/temporalConnectionOptions';

/** The client connection of the API, the CLI, the benches and the tests. */
export async function connectTemporal(settings: TemporalConnectionSettings): Promise<Connection> {
  try {
    return await Connection.connect(connectionOptions(settings));
  } catch (error) {
    throw connectionFailure(settings, error);
  }
}

export async function connectTemporalClient(temporal: TemporalConfig): Promise<Client> {
  const connection = await connectTemporal(temporal.connection);
  return new Client({ connection, namespace: temporal.namespace });
}

import path from 'node:path';
import { temporal } from '@temporalio/proto';

/** Saved histories of the workflow, recorded by test/replay/record.ts. */
export const HISTORIES_DIR = path.join(__dirname, 'histories');

const History = temporal.api.history.v1.History;

/**
 * A history as JSON through @temporalio/proto's own message class. Not the SDK's
 * historyToJSON/historyFromJSON: in this install @temporalio/common and @temporalio/proto each
 * carry their own copy of protobufjs 8 (the hoisted one is grpc's 7), and those helpers fail with
 * "type must be a Type" when one copy's protojson meets the other's types.
 */
export function historyToJson(history: temporal.api.history.v1.IHistory): string {
  const object = History.toObject(History.fromObject(history), { longs: String, enums: String, bytes: String });
  return `${JSON.stringify(object, null, 1)}\n`;
}

/** The decoded message back: its Long event ids make the replay worker take it as is. */
export function historyFromJson(json: string): temporal.api.history.v1.History {
  return History.fromObject(JSON.parse(json) as Record<string, unknown>);
}

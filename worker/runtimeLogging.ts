import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

/** The Temporal Runtime logs at this level; must run before the first connection is made. */
export function installRuntimeLogging(level: LogLevel): void {
  Runtime.install({ logger: new DefaultLogger(level) });
}

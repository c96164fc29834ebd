import { DefaultLogger, Runtime } from '@temporalio/worker';

let installed = false;

/** Worker state changes at INFO drown test output; keep warnings and errors. */
export function installQuietRuntime(): void {
  if (installed) return;
  Runtime.install({ logger: new DefaultLogger('WARN') });
  installed = true;
}

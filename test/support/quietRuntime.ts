import { installRuntimeLogging } from '../../worker/runtimeLogging';

let installed = false;

/** Worker state changes at INFO drown test output; keep warnings and errors. */
export function installQuietRuntime(): void {
  if (installed) return;
  installRuntimeLogging('WARN');
  installed = true;
}

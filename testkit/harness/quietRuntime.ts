import { installRuntimeLogging } from '../../worker/runtimeLogging';

let installed = false;

/**
 * Worker state changes at INFO drown test output; keep warnings and errors. The first call
 * wins: a suite that wants the Runtime's Prometheus endpoint calls this before starting workers.
 */
export function installQuietRuntime(options: { prometheusBindAddress?: string } = {}): void {
  if (installed) return;
  installRuntimeLogging('WARN', options);
  installed = true;
}

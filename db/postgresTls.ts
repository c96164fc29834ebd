import { readPemFile } from '../crypto/pemFile';

const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export const isSslMode = (value: string): value is SslMode => (SSL_MODES as readonly string[]).includes(value);

/**
 * A DATABASE_URL's TLS parameters as psql and every libpq client read them. pg reads the same
 * names but, by default, treats `require` and `verify-ca` as `verify-full`: a managed database
 * whose documented URL says `sslmode=require` would then be refused for its certificate's host
 * name. `uselibpqcompat=true` gives them libpq's meaning (require: encrypted, certificate
 * unchecked unless `sslrootcert` is given; verify-ca: chain checked, host name not; verify-full:
 * both). `sslrootcert=system` (libpq 16) means Node's built-in CAs and forces verify-full, as
 * there. A CA, certificate or key file is read here, so a wrong path fails at start-up naming it.
 */
export function libpqCompatibleUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can rewrite (e.g. a socket path form): pg parses it as it is.
    return url;
  }
  const params = parsed.searchParams;
  const mode = params.get('sslmode');
  if (mode !== null && !isSslMode(mode))
    throw new Error(`DATABASE_URL sslmode=${mode}: use one of ${SSL_MODES.join(', ')}`);
  if (params.get('sslrootcert') === 'system') {
    if (mode !== null && mode !== 'verify-full')
      throw new Error('DATABASE_URL sslrootcert=system: requires sslmode=verify-full (or no sslmode)');
    params.delete('sslrootcert');
    params.set('sslmode', 'verify-full');
  }
  for (const name of ['sslrootcert', 'sslcert', 'sslkey']) {
    const file = params.get(name);
    if (file !== null) readPemFile(file, `DATABASE_URL ${name}`);
  }
  const usesTls = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey'].some((name) => params.has(name));
  if (usesTls && !params.has('uselibpqcompat')) params.set('uselibpqcompat', 'true');
  return parsed.toString();
}

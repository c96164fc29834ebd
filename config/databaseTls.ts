import { z } from 'zod';

/**
 * Postgres TLS as separate settings, for deployments that keep DATABASE_URL free of file paths
 * (a Kubernetes Secret holding the URL, the CA mounted from a ConfigMap). They become the URL's
 * libpq parameters, so one code path (db/postgresTls.ts) reads both forms.
 */
export const databaseTlsEnvSchema = z.object({
  DATABASE_SSL_MODE: z
    .enum(['disable', 'prefer', 'require', 'verify-ca', 'verify-full'])
    .optional()
    .describe("libpq's `sslmode`, added to DATABASE_URL (which must not say otherwise)."),
  DATABASE_SSL_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("CA bundle (a path) that signs the Postgres server's certificate: libpq's `sslrootcert`."),
});

type DatabaseTlsEnv = z.infer<typeof databaseTlsEnvSchema> & { DATABASE_URL: string };

/** The URL with the settings folded in; a setting that contradicts the URL is reported, not guessed. */
export function databaseUrlWithTls(e: DatabaseTlsEnv, problems: string[]): string {
  if (e.DATABASE_SSL_MODE === undefined && e.DATABASE_SSL_CA_FILE === undefined) return e.DATABASE_URL;
  const url = new URL(e.DATABASE_URL);
  const put = (param: string, setting: string, value: string | undefined) => {
    if (value === undefined) return;
    const inUrl = url.searchParams.get(param);
    if (inUrl !== null && inUrl !== value) problems.push(`${setting}: DATABASE_URL already has ${param}=${inUrl}`);
    url.searchParams.set(param, value);
  };
  put('sslmode', 'DATABASE_SSL_MODE', e.DATABASE_SSL_MODE);
  put('sslrootcert', 'DATABASE_SSL_CA_FILE', e.DATABASE_SSL_CA_FILE);
  return url.toString();
}

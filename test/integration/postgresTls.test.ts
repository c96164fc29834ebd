import { sql } from 'kysely';
import { loadConfig } from '../../config/config';
import { createDb } from '../../db/connection';
import { createTestCa, type TestCa } from '../../testkit/fixtures/testCa';
import { startTlsPostgres, type TlsPostgres } from '../../testkit/harness/tlsPostgres';

// A private PostgreSQL that takes TCP clients over TLS only, its certificate signed by a CA made
// here: DATABASE_URL's libpq TLS parameters must mean what they mean to psql.
let ca: TestCa;
let otherCa: TestCa;
let server: TlsPostgres;
beforeAll(async () => {
  ca = createTestCa('sluice-postgres');
  otherCa = createTestCa('sluice-other');
  server = await startTlsPostgres(ca);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  ca?.remove();
  otherCa?.remove();
});

/** Whether this session is encrypted, as the server sees it. */
async function sessionUsesTls(url: string): Promise<boolean> {
  const db = createDb(url, 1);
  try {
    const { rows } = await sql<{ ssl: boolean }>`select ssl from pg_stat_ssl where pid = pg_backend_pid()`.execute(db);
    return rows[0]?.ssl === true;
  } finally {
    await db.destroy();
  }
}

describe('Postgres over TLS', () => {
  it('connects encrypted with sslmode=require, the certificate unchecked as with libpq', async () => {
    expect(await sessionUsesTls(`${server.url}?sslmode=require`)).toBe(true);
  });

  it('verifies the server with verify-full and the CA, and refuses a server another CA signed', async () => {
    expect(await sessionUsesTls(`${server.url}?sslmode=verify-full&sslrootcert=${ca.caFile}`)).toBe(true);
    expect(await sessionUsesTls(`${server.url}?sslmode=verify-ca&sslrootcert=${ca.caFile}`)).toBe(true);
    await expect(sessionUsesTls(`${server.url}?sslmode=verify-full&sslrootcert=${otherCa.caFile}`)).rejects.toThrow(
      /self[- ]signed|unable to (get local issuer|verify)/i,
    );
  });

  it('is refused in plain text by a server that requires TLS', async () => {
    await expect(sessionUsesTls(`${server.url}?sslmode=disable`)).rejects.toThrow(/no encryption|pg_hba/);
  });

  it('takes DATABASE_SSL_MODE and DATABASE_SSL_CA_FILE from the config', async () => {
    const { url } = loadConfig({
      DATABASE_URL: server.url,
      DATABASE_SSL_MODE: 'verify-full',
      DATABASE_SSL_CA_FILE: ca.caFile,
    }).database;
    expect(await sessionUsesTls(url)).toBe(true);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'pg-connection-string';
import { libpqCompatibleUrl } from '../../../db/postgresTls';

// What pg itself makes of the rewritten URL: the `ssl` option its Client receives.
const sslOf = (url: string) => parse(libpqCompatibleUrl(url)).ssl;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-pgtls-'));
const caFile = path.join(dir, 'ca.pem');
fs.writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('libpqCompatibleUrl', () => {
  it('gives sslmode=require libpq’s meaning: encrypted, certificate not checked', () => {
    expect(sslOf('postgres://u@db.example/sluice?sslmode=require')).toMatchObject({ rejectUnauthorized: false });
  });

  it('checks the chain but not the host name for verify-ca, and both for verify-full', () => {
    const verifyCa = sslOf(`postgres://u@10.0.0.5/sluice?sslmode=verify-ca&sslrootcert=${caFile}`);
    expect(verifyCa).toMatchObject({ ca: expect.stringContaining('BEGIN CERTIFICATE') });
    expect(verifyCa).not.toMatchObject({ rejectUnauthorized: false });
    expect(typeof (verifyCa as { checkServerIdentity?: unknown }).checkServerIdentity).toBe('function');
    const verifyFull = sslOf(`postgres://u@db.example/sluice?sslmode=verify-full&sslrootcert=${caFile}`);
    expect(verifyFull).toMatchObject({ ca: expect.stringContaining('BEGIN CERTIFICATE') });
    expect(verifyFull).not.toHaveProperty('checkServerIdentity');
    expect(verifyFull).not.toHaveProperty('rejectUnauthorized');
  });

  it('reads sslrootcert=system as Node’s built-in CAs with full verification, as libpq 16 does', () => {
    const url = libpqCompatibleUrl('postgres://u@db.example/sluice?sslrootcert=system');
    expect(new URL(url).searchParams.get('sslmode')).toBe('verify-full');
    expect(parse(url).ssl).toEqual({});
    expect(() => libpqCompatibleUrl('postgres://u@h/db?sslmode=require&sslrootcert=system')).toThrow(
      /sslrootcert=system: requires sslmode=verify-full/,
    );
  });

  it('names the parameter when a file is missing or not PEM, and an unknown mode', () => {
    expect(() => libpqCompatibleUrl('postgres://u@h/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem')).toThrow(
      'DATABASE_URL sslrootcert: cannot read /nonexistent/ca.pem (ENOENT)',
    );
    const notPem = path.join(dir, 'ca.der');
    fs.writeFileSync(notPem, Buffer.from([0x30, 0x82, 0x01]));
    expect(() => libpqCompatibleUrl(`postgres://u@h/db?sslmode=verify-ca&sslrootcert=${notPem}`)).toThrow(
      /DATABASE_URL sslrootcert: .* holds no PEM block/,
    );
    expect(() => libpqCompatibleUrl('postgres://u@h/db?sslmode=always')).toThrow(/sslmode=always: use one of/);
  });

  it('leaves a URL without TLS parameters untouched', () => {
    expect(libpqCompatibleUrl('postgres://postgres@127.0.0.1:54329/sluice')).toBe(
      'postgres://postgres@127.0.0.1:54329/sluice',
    );
    expect(parse(libpqCompatibleUrl('postgres://u@h/db?sslmode=disable')).ssl).toBe(false);
  });
});

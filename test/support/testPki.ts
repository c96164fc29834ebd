import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestPki {
  dir: string;
  caCert: string;
  clientCert: string;
  clientKey: string;
  /** A second key that does not belong to clientCert. */
  otherKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** A CA made for one test run and a client certificate it signed (openssl, as scripts/stack/temporal-cluster.sh does). */
export function makeTestPki(): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-pki-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=test-ca']);
  openssl(dir, ['req', ...ec, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=test-client']);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'client.pem',
    '-days',
    '2',
  ]);
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', 'other.key']);
  return {
    dir,
    caCert: path.join(dir, 'ca.pem'),
    clientCert: path.join(dir, 'client.pem'),
    clientKey: path.join(dir, 'client.key'),
    otherKey: path.join(dir, 'other.key'),
  };
}

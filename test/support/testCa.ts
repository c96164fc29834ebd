import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A certificate authority made for one test run and one server certificate it signed, as PEM files. */
export interface TestCa {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  /** The PEM texts of the three files. */
  ca: string;
  cert: string;
  key: string;
  remove(): void;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: 'pipe' });

/**
 * Made with the openssl CLI, the way an operator makes a private CA: a self-signed CA and a
 * server certificate for `localhost` and 127.0.0.1, both valid for a day (P-256 keys: fast).
 */
export function createTestCa(name = 'sluice-test'): TestCa {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-ca-`));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', `/CN=${name} CA`].concat([
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]),
    dir,
  );
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature\n',
  );
  openssl(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'].concat([
      '-out',
      'server.pem',
      '-days',
      '1',
      '-extfile',
      'server.ext',
    ]),
    dir,
  );
  const file = (f: string) => path.join(dir, f);
  return {
    dir,
    caFile: file('ca.pem'),
    certFile: file('server.pem'),
    keyFile: file('server.key'),
    ca: fs.readFileSync(file('ca.pem'), 'utf8'),
    cert: fs.readFileSync(file('server.pem'), 'utf8'),
    key: fs.readFileSync(file('server.key'), 'utf8'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

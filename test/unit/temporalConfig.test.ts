import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { loadConfig } from '../../config/config';
import { makeTestPki, type TestPki } from '../../testkit/fixtures/testPki';

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki();
});
afterAll(() => fs.rmSync(pki.dir, { recursive: true, force: true }));

// No HOME: env-config would otherwise read the developer's own ~/.config/temporalio/temporal.toml.
const mtls = () => ({
  TEMPORAL_ADDRESS: 'temporal.example.com:7233',
  TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
  TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
  TEMPORAL_TLS_SERVER_NAME: 'frontend.internal',
});

describe('the Temporal connection settings', () => {
  it('default to the plain local dev server', () => {
    const { temporal } = loadConfig({});
    expect(temporal.connection).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', tls: false });
    expect(temporal.deployment).toBeNull();
  });

  it('take mTLS from the TEMPORAL_TLS_* paths, checked and loaded once', () => {
    const { connection } = loadConfig(mtls()).temporal;
    if (typeof connection.tls !== 'object') throw new Error('expected a TLS config');
    expect(connection.tls.serverNameOverride).toBe('frontend.internal');
    expect(connection.tls.clientCertPair?.crt.toString()).toBe(fs.readFileSync(pki.clientCert, 'utf8'));
    expect(connection.tls.serverRootCACertificate?.toString()).toBe(fs.readFileSync(pki.caCert, 'utf8'));
  });

  it('take the certificate and key inline from the _DATA variables', () => {
    const { connection } = loadConfig({
      TEMPORAL_TLS_CLIENT_CERT_DATA: fs.readFileSync(pki.clientCert, 'utf8'),
      TEMPORAL_TLS_CLIENT_KEY_DATA: fs.readFileSync(pki.clientKey, 'utf8'),
    }).temporal;
    expect(typeof connection.tls === 'object' && connection.tls.clientCertPair?.key.toString()).toBe(
      fs.readFileSync(pki.clientKey, 'utf8'),
    );
  });

  it('turn TLS on for an API key and never show the key', () => {
    const secret = 'tmprl-api-key-do-not-print';
    const config = loadConfig({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY: secret });
    expect(config.temporal.connection.tls).toBe(true);
    expect(config.temporal.connection.apiKey).toBe(secret);
    expect(JSON.stringify(config)).not.toContain(secret);
    expect(inspect(config, { depth: 10 })).not.toContain(secret);
  });

  it('keep the client key out of JSON and inspect output', () => {
    const config = loadConfig(mtls());
    const keyBody = fs.readFileSync(pki.clientKey, 'utf8').split('\n')[1] ?? 'missing';
    expect(JSON.stringify(config)).not.toContain(keyBody);
    expect(inspect(config, { depth: 10 })).not.toContain(keyBody);
  });

  it('refuse a certificate that is not one, naming the setting and not its content', () => {
    const bad = path.join(pki.dir, 'garbage.pem');
    fs.writeFileSync(bad, 'secret-garbage-bytes');
    expect(() => loadConfig({ ...mtls(), TEMPORAL_TLS_CLIENT_CERT_PATH: bad })).toThrow(
      /TEMPORAL_TLS_CLIENT_CERT_PATH: not a PEM certificate/,
    );
    const corrupt = fs.readFileSync(pki.caCert, 'utf8').replace(/\n[A-Za-z0-9+/]{10}/, '\nAAAAAAAAAA');
    expect(() =>
      loadConfig({ ...mtls(), TEMPORAL_TLS_SERVER_CA_CERT_DATA: corrupt, TEMPORAL_TLS_SERVER_CA_CERT_PATH: undefined }),
    ).toThrow(/TEMPORAL_TLS_SERVER_CA_CERT_DATA: not a valid PEM certificate/);
  });

  it('refuse a key that is not one, or not the certificate’s, without printing it', () => {
    const load = () =>
      loadConfig({ ...mtls(), TEMPORAL_TLS_CLIENT_KEY_PATH: undefined, TEMPORAL_TLS_CLIENT_KEY_DATA: 'hunter2-key' });
    expect(load).toThrow(/TEMPORAL_TLS_CLIENT_KEY_DATA: not a valid PEM private key/);
    expect(load).not.toThrow(/hunter2/);
    expect(() => loadConfig({ ...mtls(), TEMPORAL_TLS_CLIENT_KEY_PATH: pki.otherKey })).toThrow(
      /TEMPORAL_TLS_CLIENT_KEY_PATH: does not belong to the client certificate/,
    );
    expect(() => loadConfig({ ...mtls(), TEMPORAL_TLS_CLIENT_KEY_PATH: path.join(pki.dir, 'nope.key') })).toThrow(
      /TEMPORAL_TLS_CLIENT_KEY_PATH: cannot read the file \(ENOENT\)/,
    );
    expect(() => loadConfig({ ...mtls(), TEMPORAL_TLS_CLIENT_KEY_PATH: undefined })).toThrow(
      /TEMPORAL_TLS_CLIENT_KEY_PATH: required with a client certificate/,
    );
  });

  describe('from a temporal.toml profile', () => {
    const toml = () => {
      const file = path.join(pki.dir, 'temporal.toml');
      fs.writeFileSync(
        file,
        [
          '[profile.default]',
          'address = "localhost:7233"',
          '[profile.prod]',
          'address = "prod.internal:7233"',
          'namespace = "sluice-prod"',
          '[profile.prod.tls]',
          `client_cert_path = "${pki.clientCert}"`,
          `client_key_path = "${pki.clientKey}"`,
          `server_ca_cert_path = "${pki.caCert}"`,
          '[profile.broken.tls]',
          `client_cert_path = "${pki.clientKey}"`,
          `client_key_path = "${pki.clientKey}"`,
        ].join('\n'),
      );
      return file;
    };

    it('uses TEMPORAL_PROFILE, with the TEMPORAL_* variables overriding it', () => {
      const file = toml();
      const prod = loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' }).temporal;
      expect(prod.address).toBe('prod.internal:7233');
      expect(prod.namespace).toBe('sluice-prod');
      expect(typeof prod.connection.tls === 'object' && prod.connection.tls.clientCertPair).toBeTruthy();
      const overridden = loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod', TEMPORAL_ADDRESS: 'x:1' });
      expect(overridden.temporal.address).toBe('x:1');
      expect(loadConfig({ TEMPORAL_CONFIG_FILE: file }).temporal.address).toBe('localhost:7233');
      // A stack moved to other ports does not override the profile's address with its dev server's.
      const moved = { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod', SLUICE_TEMPORAL_PORT: '7243' };
      expect(loadConfig(moved).temporal.address).toBe('prod.internal:7233');
    });

    it('names the profile key of a bad certificate, a missing profile and a missing file', () => {
      const file = toml();
      expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'broken' })).toThrow(
        /profile\.broken\.tls\.client_cert_path \(.*temporal\.toml\): not a PEM certificate/,
      );
      expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' })).toThrow(
        /TEMPORAL_CONFIG_FILE: Profile 'staging' not found/,
      );
      expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: path.join(pki.dir, 'absent.toml') })).toThrow(
        /TEMPORAL_CONFIG_FILE: no such file/,
      );
    });
  });

  it('give a versioned worker its deployment and the release build id', () => {
    const { deployment } = loadConfig({ SLUICE_DEPLOYMENT_NAME: 'sluice' }).temporal;
    const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(deployment?.name).toBe('sluice');
    expect(deployment?.buildId).toMatch(new RegExp(`^${version.replace(/\./g, '\\.')}(\\+[0-9a-f]{12})?$`));
    expect(loadConfig({ SLUICE_DEPLOYMENT_NAME: 'sluice', SLUICE_BUILD_ID: 'v2' }).temporal.deployment?.buildId).toBe(
      'v2',
    );
    expect(() => loadConfig({ SLUICE_DEPLOYMENT_NAME: 'a b' })).toThrow(/SLUICE_DEPLOYMENT_NAME/);
  });
});

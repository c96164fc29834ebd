import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { inspect } from 'node:util';
import { loadClientConfigProfile, type ClientConfigProfile, type ConfigDataSource } from '@temporalio/envconfig';
import { z } from 'zod';
import { releaseBuildId } from './releaseBuildId';

/**
 * How every sluice process reaches Temporal: the standard TEMPORAL_* variables, or a
 * `temporal.toml` profile (TEMPORAL_CONFIG_FILE, TEMPORAL_PROFILE) read by Temporal's own
 * env-config package, so the names are those of Temporal's CLI and other SDKs. The variables
 * override the profile, as they do there.
 */
const optional = z.string().min(1).optional();

export const temporalEnvSchema = z.object({
  TEMPORAL_ADDRESS: optional.describe(
    "Temporal frontend `host:port`. Unset: the profile's, else `127.0.0.1:7233` (the dev server).",
  ),
  TEMPORAL_NAMESPACE: optional.describe("Temporal namespace. Unset: the profile's, else `default`."),
  TEMPORAL_API_KEY: optional.describe('API key (Temporal Cloud); turns TLS on.'),
  TEMPORAL_TLS: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .describe("`true`: TLS, with the system's CAs unless a CA is given; `false`: plain gRPC whatever else is set."),
  TEMPORAL_TLS_CLIENT_CERT_PATH: optional.describe('Client certificate (a PEM file) for mTLS; needs a client key.'),
  TEMPORAL_TLS_CLIENT_CERT_DATA: optional.describe('The client certificate as PEM text, instead of a file.'),
  TEMPORAL_TLS_CLIENT_KEY_PATH: optional.describe("The client certificate's private key (a PEM file)."),
  TEMPORAL_TLS_CLIENT_KEY_DATA: optional.describe('The client private key as PEM text, instead of a file.'),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: optional.describe(
    "CA bundle (a PEM file) that signed the server's certificate. Unset: the system's CAs.",
  ),
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: optional.describe('The server CA bundle as PEM text, instead of a file.'),
  TEMPORAL_TLS_SERVER_NAME: optional.describe("Name to verify the server's certificate against, if not the host's."),
  TEMPORAL_PROFILE: optional.describe('Profile of the temporal.toml file to use. Unset: `default`.'),
  TEMPORAL_CONFIG_FILE: optional.describe(
    'A temporal.toml file (must exist). Unset: `~/.config/temporalio/temporal.toml` if there is one.',
  ),
  // Worker Versioning (docs/deployment.md): set on the workers of a versioned rollout.
  SLUICE_DEPLOYMENT_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be letters, digits, - or _')
    .optional()
    .describe('Worker Deployment of a versioned rollout. Unset: an unversioned worker, which takes every task.'),
  // Empty counts as unset: the Dockerfile's ENV passes an empty build arg through.
  SLUICE_BUILD_ID: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[A-Za-z0-9_.+-]{1,100}$/, 'must be letters, digits, and . + - _')
        .optional(),
    )
    .describe("A versioned worker's build id. Unset or empty: the package version plus the git commit."),
});

/**
 * Read by Temporal's env-config package from the same environment, outside the schema above: a
 * family of names, and settings sluice has no use for. Named here so the reference lists them.
 */
export const envConfigOnlyVariables = {
  'TEMPORAL_GRPC_META_<NAME>':
    'A gRPC header sent with every Temporal call: `<NAME>` lower-cased, its first `_` made `-`.',
  TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: "Read by env-config, not applied: the server's name is always verified.",
  TEMPORAL_CODEC_ENDPOINT: 'Read by env-config, not used: sluice runs no remote payload codec.',
  TEMPORAL_CODEC_AUTH: 'Read by env-config, not used: sluice runs no remote payload codec.',
};

export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';

/** What the SDKs' Connection and NativeConnection take; the key material already checked. */
export interface TemporalTls {
  serverNameOverride?: string;
  serverRootCACertificate?: Buffer;
  clientCertPair?: { crt: Buffer; key: Buffer };
}

export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  apiKey: string | undefined;
  /** false: plain gRPC (the dev server); true: TLS with the system's CAs. */
  tls: TemporalTls | boolean;
  metadata: Record<string, string> | undefined;
}

type Env = Record<string, string | undefined>;
type TlsItem = 'clientCert' | 'clientKey' | 'serverCACert';

const ENV_NAMES: Record<TlsItem, { path: string; data: string; toml: string }> = {
  clientCert: { path: 'TEMPORAL_TLS_CLIENT_CERT_PATH', data: 'TEMPORAL_TLS_CLIENT_CERT_DATA', toml: 'client_cert' },
  clientKey: { path: 'TEMPORAL_TLS_CLIENT_KEY_PATH', data: 'TEMPORAL_TLS_CLIENT_KEY_DATA', toml: 'client_key' },
  serverCACert: {
    path: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
    data: 'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
    toml: 'server_ca_cert',
  },
};

/** The setting a TLS item came from, so an error names what the operator wrote. */
function settingName(item: TlsItem, source: ConfigDataSource, env: Env, profileName: string): string {
  const names = ENV_NAMES[item];
  if (env[names.path] !== undefined) return names.path;
  if (env[names.data] !== undefined) return names.data;
  return `profile.${profileName}.tls.${names.toml}_${'path' in source ? 'path' : 'data'} (${env.TEMPORAL_CONFIG_FILE ?? 'temporal.toml'})`;
}

function readSource(source: ConfigDataSource): Buffer {
  if ('path' in source) return fs.readFileSync(source.path);
  return Buffer.from(source.data);
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM bundle parses, or the setting is named; the bytes never appear. */
function checkCertificates(bytes: Buffer, setting: string, problems: string[]): X509Certificate | null {
  const blocks = bytes.toString('latin1').match(PEM_CERT) ?? [];
  if (blocks.length === 0) {
    problems.push(`${setting}: not a PEM certificate`);
    return null;
  }
  try {
    const certs = blocks.map((block) => new X509Certificate(block));
    return certs[0] ?? null;
  } catch {
    problems.push(`${setting}: not a valid PEM certificate`);
    return null;
  }
}

function checkKey(bytes: Buffer, setting: string, problems: string[]): KeyObject | null {
  try {
    return createPrivateKey(bytes);
  } catch {
    problems.push(`${setting}: not a valid PEM private key`);
    return null;
  }
}

function loadItem(item: TlsItem, tls: NonNullable<ClientConfigProfile['tls']>, ctx: Ctx): [Buffer, string] | null {
  const source = tls[item];
  if (source === undefined) return null;
  const setting = settingName(item, source, ctx.env, ctx.profileName);
  try {
    return [readSource(source), setting];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    ctx.problems.push(`${setting}: cannot read the file (${code})`);
    return null;
  }
}

interface Ctx {
  env: Env;
  profileName: string;
  problems: string[];
}

function resolveTls(profile: ClientConfigProfile, ctx: Ctx): TemporalTls | boolean {
  const tls = profile.tls;
  if (tls === undefined) return profile.apiKey !== undefined;
  if (tls.disabled === true) return false;
  const cert = loadItem('clientCert', tls, ctx);
  const key = loadItem('clientKey', tls, ctx);
  const ca = loadItem('serverCACert', tls, ctx);
  const x509 = cert ? checkCertificates(cert[0], cert[1], ctx.problems) : null;
  const keyObject = key ? checkKey(key[0], key[1], ctx.problems) : null;
  if (ca) checkCertificates(ca[0], ca[1], ctx.problems);
  if ((tls.clientCert === undefined) !== (tls.clientKey === undefined)) {
    ctx.problems.push(
      tls.clientCert
        ? 'TEMPORAL_TLS_CLIENT_KEY_PATH: required with a client certificate'
        : 'TEMPORAL_TLS_CLIENT_CERT_PATH: required with a client key',
    );
  }
  if (x509 && keyObject && key && !x509.checkPrivateKey(keyObject)) {
    ctx.problems.push(`${key[1]}: does not belong to the client certificate`);
  }
  return {
    ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
    ...(ca ? { serverRootCACertificate: ca[0] } : {}),
    ...(cert && key ? { clientCertPair: { crt: cert[0], key: key[0] } } : {}),
  };
}

/** Logs and JSON show where the process connects, never the API key or the key material. */
function redacted(settings: TemporalConnectionSettings) {
  const tls = settings.tls;
  return {
    address: settings.address,
    namespace: settings.namespace,
    apiKey: settings.apiKey ? '[redacted]' : undefined,
    tls: typeof tls === 'boolean' ? tls : { serverName: tls.serverNameOverride, clientCert: !!tls.clientCertPair },
  };
}

export function resolveTemporalConnection(env: Env, problems: string[]): TemporalConnectionSettings {
  const defined = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  let profile: ClientConfigProfile = {};
  // env-config treats a missing file as "no profile"; one that was named explicitly must exist.
  if (env.TEMPORAL_CONFIG_FILE && !fs.existsSync(env.TEMPORAL_CONFIG_FILE)) {
    problems.push('TEMPORAL_CONFIG_FILE: no such file');
  }
  try {
    profile = loadClientConfigProfile({ overrideEnvVars: defined, configFileStrict: true });
  } catch (error) {
    const setting = env.TEMPORAL_CONFIG_FILE ? 'TEMPORAL_CONFIG_FILE' : 'TEMPORAL_PROFILE';
    problems.push(`${setting}: ${error instanceof Error ? error.message : 'cannot load the profile'}`);
  }
  const ctx: Ctx = { env, profileName: env.TEMPORAL_PROFILE ?? 'default', problems };
  const settings: TemporalConnectionSettings = {
    address: profile.address ?? DEFAULT_TEMPORAL_ADDRESS,
    namespace: profile.namespace ?? 'default',
    apiKey: profile.apiKey,
    tls: resolveTls(profile, ctx),
    metadata: profile.grpcMeta && Object.keys(profile.grpcMeta).length > 0 ? profile.grpcMeta : undefined,
  };
  Object.defineProperties(settings, {
    toJSON: { value: () => redacted(settings) },
    [inspect.custom]: { value: () => redacted(settings) },
  });
  return settings;
}

export interface TemporalConfig {
  address: string;
  namespace: string;
  connection: TemporalConnectionSettings;
  /**
   * The worker's Worker Deployment version: set (SLUICE_DEPLOYMENT_NAME) for a versioned rollout,
   * where the server routes each run to the version it belongs to; null for an unversioned worker
   * (the dev stack), which takes every task of its queue.
   */
  deployment: { name: string; buildId: string } | null;
}

export function resolveTemporal(env: Env, root: string, problems: string[]): TemporalConfig {
  const connection = resolveTemporalConnection(env, problems);
  const name = env.SLUICE_DEPLOYMENT_NAME;
  return {
    address: connection.address,
    namespace: connection.namespace,
    connection,
    deployment: name ? { name, buildId: env.SLUICE_BUILD_ID ?? releaseBuildId(root) } : null,
  };
}

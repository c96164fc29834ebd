import { loadConfig } from '../../../config/config';

const production = {
  SLUICE_PROFILE: 'production',
  SLUICE_SECRET_KEY: 'a'.repeat(64),
  S3_BUCKET: 'b',
  QDRANT_URL: 'http://q:6333',
  OPENSEARCH_URL: 'https://search.example:443',
};

describe('cloud credential settings', () => {
  it('uses the AWS default credential chain for S3 when no static keys are set', () => {
    const store = loadConfig(production).stores.objectStore;
    expect(store).toMatchObject({ kind: 's3', credentials: null });
    const keyed = loadConfig({ ...production, S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).stores.objectStore;
    expect(keyed).toMatchObject({ credentials: { accessKeyId: 'k', secretAccessKey: 's' } });
  });

  it('refuses half a static S3 key pair instead of quietly falling back to the chain', () => {
    expect(() => loadConfig({ ...production, S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither/,
    );
    expect(() => loadConfig({ ...production, S3_SECRET_ACCESS_KEY: 's' })).toThrow(/set both, or neither/);
  });

  it('takes an OpenSearch CA bundle and SigV4 signing with its region', () => {
    const index = loadConfig({
      ...production,
      OPENSEARCH_CA_FILE: '/etc/sluice/opensearch-ca.pem',
      OPENSEARCH_AWS_SIGV4: 'aoss',
      OPENSEARCH_AWS_REGION: 'eu-west-1',
    }).stores.keywordIndex;
    expect(index).toMatchObject({
      kind: 'opensearch',
      caFile: '/etc/sluice/opensearch-ca.pem',
      awsSigv4: { region: 'eu-west-1', service: 'aoss' },
    });
    expect(loadConfig(production).stores.keywordIndex).toMatchObject({ caFile: undefined, awsSigv4: null });
  });

  it('refuses SigV4 without a region, beside basic auth, or a region without SigV4', () => {
    expect(() => loadConfig({ ...production, OPENSEARCH_AWS_SIGV4: 'es' })).toThrow(
      /OPENSEARCH_AWS_REGION: required with OPENSEARCH_AWS_SIGV4/,
    );
    expect(() =>
      loadConfig({
        ...production,
        OPENSEARCH_AWS_SIGV4: 'es',
        OPENSEARCH_AWS_REGION: 'us-east-1',
        OPENSEARCH_USERNAME: 'admin',
      }),
    ).toThrow(/unset OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD/);
    expect(() => loadConfig({ ...production, OPENSEARCH_AWS_REGION: 'us-east-1' })).toThrow(
      /OPENSEARCH_AWS_REGION: only used with OPENSEARCH_AWS_SIGV4/,
    );
    expect(() => loadConfig({ ...production, OPENSEARCH_AWS_SIGV4: 'lambda' })).toThrow(/OPENSEARCH_AWS_SIGV4/);
  });

  it('folds DATABASE_SSL_MODE and DATABASE_SSL_CA_FILE into the URL, and reports a contradiction', () => {
    const url = loadConfig({
      DATABASE_URL: 'postgres://app@db.internal:5432/sluice',
      DATABASE_SSL_MODE: 'verify-full',
      DATABASE_SSL_CA_FILE: '/etc/ssl/rds.pem',
    }).database.url;
    const params = new URL(url).searchParams;
    expect(params.get('sslmode')).toBe('verify-full');
    expect(params.get('sslrootcert')).toBe('/etc/ssl/rds.pem');
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db?sslmode=require' }).database.url).toBe(
      'postgres://h/db?sslmode=require',
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://h/db?sslmode=disable', DATABASE_SSL_MODE: 'verify-full' }),
    ).toThrow(/DATABASE_SSL_MODE: DATABASE_URL already has sslmode=disable/);
    expect(() => loadConfig({ DATABASE_SSL_MODE: 'sometimes' })).toThrow(/DATABASE_SSL_MODE/);
  });
});

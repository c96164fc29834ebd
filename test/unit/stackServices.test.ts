import { stackServicesFor } from '../../cli/stack';
import { loadConfig } from '../../config/config';

// What `sluice demo` and `sluice up` ask scripts/stack.sh to start: only the services the configured
// adapters use, so a first demo on the local profile never builds OpenSearch or SeaweedFS.
describe('stackServicesFor', () => {
  it('starts Postgres, Temporal, the model and the bge models for the local profile', () => {
    expect(stackServicesFor(loadConfig({}))).toEqual(['postgres', 'temporal', 'model', 'bge']);
  });

  it('leaves the models out when the hashing embedder is chosen and the second dense vector is off', () => {
    expect(stackServicesFor(loadConfig({ SLUICE_EMBEDDER: 'local', SLUICE_LANGUAGE_DENSE: 'off' }))).toEqual([
      'postgres',
      'temporal',
    ]);
  });

  it('adds OpenSearch and SeaweedFS when the production adapters use them', () => {
    const config = loadConfig({
      SLUICE_PROFILE: 'production',
      SLUICE_VECTOR_STORE: 'postgres',
      OPENSEARCH_URL: 'http://127.0.0.1:9200',
      S3_ENDPOINT: 'http://127.0.0.1:8333',
      S3_BUCKET: 'sluice',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      SLUICE_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
      SLUICE_LANGUAGE_DENSE: 'off',
    });
    expect(stackServicesFor(config)).toEqual(['postgres', 'temporal', 'opensearch', 'seaweedfs']);
  });
});

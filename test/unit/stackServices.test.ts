import { stackServicesFor } from '../../cli/stack';
import { loadConfig } from '../../config/config';

// What `sluice demo` and `sluice up` ask scripts/stack.sh to start: only the services the configured
// adapters use, so a first demo on the local profile never builds OpenSearch or SeaweedFS.
describe('stackServicesFor', () => {
  it('starts Postgres, Temporal and the model for the local profile', () => {
    expect(stackServicesFor(loadConfig({}).stores)).toEqual(['postgres', 'temporal', 'model']);
  });

  it('leaves the model out when the hashing embedder is chosen', () => {
    expect(stackServicesFor(loadConfig({ SLUICE_EMBEDDER: 'local' }).stores)).toEqual(['postgres', 'temporal']);
  });

  it('adds OpenSearch and SeaweedFS when the production adapters use them', () => {
    const stores = loadConfig({
      SLUICE_PROFILE: 'production',
      SLUICE_VECTOR_STORE: 'postgres',
      OPENSEARCH_URL: 'http://127.0.0.1:9200',
      S3_ENDPOINT: 'http://127.0.0.1:8333',
      S3_BUCKET: 'sluice',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      SLUICE_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
    }).stores;
    expect(stackServicesFor(stores)).toEqual(['postgres', 'temporal', 'opensearch', 'seaweedfs']);
  });
});

import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenSearchKeywordIndex, type OpenSearchKeywordIndex } from '../../../stores/openSearchKeywordIndex';

// An in-process HTTP server standing in for an Amazon OpenSearch Service domain: it records each
// request and answers a count, so the test reads the headers the adapter really sent.
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (part: string) => (body += part));
  req.on('end', () => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: 3 }));
  });
});
let node = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
const opened: OpenSearchKeywordIndex[] = [];
afterAll(async () => {
  await Promise.all(opened.map((index) => index.close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
});

const open = (options: Omit<Parameters<typeof createOpenSearchKeywordIndex>[0], 'node' | 'index'>) => {
  const index = createOpenSearchKeywordIndex({ node, index: 'sluice-chunks', ...options });
  opened.push(index);
  return index;
};

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('OpenSearch adapter with AWS SigV4', () => {
  it('signs every request for the domain’s region and service, with the session token', async () => {
    const index = open({
      awsSigv4: {
        region: 'eu-west-1',
        service: 'es',
        credentials: () =>
          Promise.resolve({ accessKeyId: 'AKIDSLUICETEST', secretAccessKey: 'not-sent', sessionToken: 'tok-123' }),
      },
    });
    expect(await index.countForDocument('doc-1')).toBe(3);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    const { authorization, 'x-amz-date': date, 'x-amz-content-sha256': contentSha } = request!.headers;
    expect(authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDSLUICETEST\/\d{8}\/eu-west-1\/es\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(authorization).toMatch(/SignedHeaders=[^,]*x-amz-date/);
    expect(date).toMatch(/^\d{8}T\d{6}Z$/);
    expect(request!.headers['x-amz-security-token']).toBe('tok-123');
    // The signed body hash is the hash of the body that arrived.
    expect(request!.body).toContain('doc-1');
    expect(contentSha).toBe(sha256(request!.body));
    expect(JSON.stringify(request!.headers)).not.toContain('not-sent');
  });

  it('signs for OpenSearch Serverless (aoss) when asked', async () => {
    const index = open({
      awsSigv4: {
        region: 'us-east-2',
        service: 'aoss',
        credentials: () => Promise.resolve({ accessKeyId: 'AKIDSERVERLESS', secretAccessKey: 'x' }),
      },
    });
    await index.countForDocument('doc-2');
    expect(seen[0]!.headers.authorization).toMatch(/Credential=AKIDSERVERLESS\/\d{8}\/us-east-2\/aoss\/aws4_request/);
  });

  it('takes its keys from the AWS default chain’s environment step when none are given', async () => {
    const saved = { ...process.env };
    process.env.AWS_ACCESS_KEY_ID = 'AKIDFROMENV';
    process.env.AWS_SECRET_ACCESS_KEY = 'env-secret';
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    try {
      await open({ awsSigv4: { region: 'ap-south-1', service: 'es' } }).countForDocument('doc-3');
    } finally {
      process.env = saved;
    }
    expect(seen[0]!.headers.authorization).toMatch(/Credential=AKIDFROMENV\/\d{8}\/ap-south-1\/es\/aws4_request/);
  });

  it('sends no signature without SigV4', async () => {
    await open({}).countForDocument('doc-4');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['x-amz-date']).toBeUndefined();
  });
});

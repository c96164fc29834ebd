import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../config/config';
import { SluiceError } from '../../../contracts/sluiceError';
import { createOpenAiEmbedder } from '../../../embedders/openAiEmbedder';
import { mayReachPrivate, outboundFetch, OutboundRefusedError } from '../../../outbound/outboundHttp';
import type { ResultNotification } from '../../../stores/notifier';
import { createWebhookNotifier } from '../../../stores/webhookNotifier';

// Outbound HTTP refuses private addresses on every profile (tenants set these
// URLs on every profile), and SLUICE_OUTBOUND_ALLOW_HOSTS lets in the named hosts only.

let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 0, 0, 0] }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const LOCAL = { SLUICE_PROFILE: 'local' };

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

describe('outbound policy', () => {
  it('refuses loopback on the local profile by default, before sending anything', async () => {
    const { outbound } = loadConfig(LOCAL);
    expect(outbound).toEqual({ allowPrivate: false, allowHosts: [] });
    const before = hits;
    const error = await refusal(outboundFetch(outbound, `http://127.0.0.1:${port}/`, { method: 'GET', headers: {} }));
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as OutboundRefusedError).refusal).toBe('private-address');
    const embedding = await refusal(
      createOpenAiEmbedder({
        baseUrl: `http://localhost:${port}/v1`,
        apiKey: null,
        model: 'm',
        dimension: 4,
        outbound,
      }).embed(['x']),
    );
    expect(embedding).toBeInstanceOf(SluiceError);
    expect((embedding as SluiceError).code).toBe('VECTORIZING_FAILED');
    expect((embedding as SluiceError).permanent).toBe(true);
    expect(hits).toBe(before);
  });

  it('lets in exactly the allow-listed hosts (name, name:port, IPv6 in brackets), for embedders and webhooks', async () => {
    const { outbound } = loadConfig({
      ...LOCAL,
      SLUICE_OUTBOUND_ALLOW_HOSTS: ` 127.0.0.1:${port}, Provider.Internal ,[::1]`,
    });
    expect(outbound.allowHosts).toEqual([`127.0.0.1:${port}`, 'provider.internal', '[::1]']);
    const vectors = await createOpenAiEmbedder({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: null,
      model: 'm',
      dimension: 4,
      outbound,
    }).embed(['x']);
    expect(vectors).toEqual([[1, 0, 0, 0]]);
    const notification: ResultNotification = {
      event: 'ingest.succeeded',
      deliveryId: 'd-1',
      documentId: 'doc',
      taskId: 'task',
      payload: {},
    };
    await createWebhookNotifier({ url: `http://127.0.0.1:${port}/hook`, secret: 's'.repeat(16), outbound }).deliver(
      notification,
    );
    // Same address, another port; another name for the same address: not listed, so refused.
    for (const url of [`http://127.0.0.1:${port + 1}/`, `http://localhost:${port}/`, 'http://169.254.169.254/'])
      expect(await refusal(outboundFetch(outbound, url, { method: 'GET', headers: {} }))).toBeInstanceOf(
        OutboundRefusedError,
      );
    expect(mayReachPrivate(new URL('https://PROVIDER.internal:8443/v1'), outbound)).toBe(true);
    expect(mayReachPrivate(new URL('http://[::1]:9/'), outbound)).toBe(true);
    expect(mayReachPrivate(new URL('http://provider.internal.evil.example/'), outbound)).toBe(false);
    expect(mayReachPrivate(new URL(`http://127.0.0.1/`), outbound)).toBe(false);
  });

  it('refuses a malformed allow-list at start-up', () => {
    expect(() => loadConfig({ ...LOCAL, SLUICE_OUTBOUND_ALLOW_HOSTS: 'http://a.example/' })).toThrow(
      /SLUICE_OUTBOUND_ALLOW_HOSTS/,
    );
  });
});

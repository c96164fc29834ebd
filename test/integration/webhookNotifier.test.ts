import http from 'node:http';
import type net from 'node:net';
import { SluiceError } from '../../contracts/sluiceError';
import type { ResultNotification } from '../../stores/notifier';
import { createWebhookNotifier } from '../../stores/webhookNotifier';
import { signDelivery, SIGNATURE_HEADER, verifyDelivery } from '../../stores/webhookSignature';

// The webhook client against real local receivers: no redirect followed, private addresses only when allowed.

const SECRET = 'webhook-secret-0123456789';
const notification: ResultNotification = {
  event: 'ingest.succeeded',
  deliveryId: '7',
  documentId: 'd',
  taskId: 't',
  payload: { documentId: 'd', status: 'SUCCESS' },
};

async function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const bodies: {
    url: string | undefined;
    body: string;
    signature: string | undefined;
    headers: Record<string, string | undefined>;
  }[] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push({
        url: req.url,
        body,
        signature: req.headers[SIGNATURE_HEADER] as string | undefined,
        headers: req.headers as Record<string, string | undefined>,
      });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

async function failureOf(promise: Promise<unknown>): Promise<SluiceError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SluiceError);
  return err as SluiceError;
}

describe('webhook delivery', () => {
  it('posts the body signed with its timestamp and delivery id, which a receiver verifies', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const sentAt = Date.UTC(2026, 11, 1, 21, 0, 0);
    try {
      await createWebhookNotifier({
        url: r.url,
        secret: SECRET,
        outbound: { allowPrivate: true },
        now: () => sentAt,
      }).deliver(notification);
      expect(r.bodies).toHaveLength(1);
      const [got] = r.bodies;
      const headers = got?.headers ?? {};
      const body = got?.body ?? '';
      expect(headers['x-sluice-timestamp']).toBe(String(sentAt / 1000));
      expect(headers['x-sluice-delivery']).toBe('7');
      expect(got?.signature).toBe(signDelivery(SECRET, sentAt / 1000, '7', body));
      const verify = (h: Record<string, string | undefined>, b: string, nowMs: number) =>
        verifyDelivery({ secret: SECRET, headers: h, body: b, nowMs });
      expect(verify(headers, body, sentAt + 60_000)).toBe('ok');
      // A replay ten minutes later is stale; re-dating it or changing its id breaks the signature.
      expect(verify(headers, body, sentAt + 600_000)).toBe('stale');
      expect(verify({ ...headers, 'x-sluice-timestamp': String(sentAt / 1000 + 600) }, body, sentAt + 600_000)).toBe(
        'bad-signature',
      );
      expect(verify({ ...headers, 'x-sluice-delivery': '8' }, body, sentAt)).toBe('bad-signature');
      expect(verify(headers, `${body} `, sentAt)).toBe('bad-signature');
      expect(verify({ ...headers, 'x-sluice-timestamp': undefined }, body, sentAt)).toBe('malformed');
    } finally {
      await r.close();
    }
  });

  it('does not follow a redirect, and says so with a permanent RESULT_NOTIFY_FAILED', async () => {
    const elsewhere = await receiver((_req, res) => res.writeHead(204).end());
    const redirecting = await receiver((_req, res) => res.writeHead(307, { location: elsewhere.url }).end());
    try {
      const err = await failureOf(
        createWebhookNotifier({ url: redirecting.url, secret: SECRET, outbound: { allowPrivate: true } }).deliver(
          notification,
        ),
      );
      expect(err.code).toBe('RESULT_NOTIFY_FAILED');
      expect(err.permanent).toBe(true);
      expect(err.message).toMatch(/redirect/);
      expect(redirecting.bodies).toHaveLength(1);
      expect(elsewhere.bodies).toHaveLength(0);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  it('refuses a private address unless allowed, sending nothing', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    try {
      for (const url of [r.url, `http://localhost:${r.port}/hook`]) {
        const err = await failureOf(
          createWebhookNotifier({ url, secret: SECRET, outbound: { allowPrivate: false } }).deliver(notification),
        );
        expect(err.code).toBe('RESULT_NOTIFY_FAILED');
        expect(err.permanent).toBe(true);
        expect(err.message).toMatch(/private, loopback or link-local/);
        expect(err.message).not.toMatch(/127\.0\.0\.1|localhost/);
      }
      expect(r.bodies).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  it('fails transiently on a 5xx answer, naming only the status', async () => {
    const r = await receiver((_req, res) => res.writeHead(503).end('db.internal.corp is down'));
    try {
      const err = await failureOf(
        createWebhookNotifier({ url: r.url, secret: SECRET, outbound: { allowPrivate: true } }).deliver(notification),
      );
      expect(err.permanent).toBe(false);
      expect(err.message).toBe('webhook answered HTTP 503');
    } finally {
      await r.close();
    }
  });
});

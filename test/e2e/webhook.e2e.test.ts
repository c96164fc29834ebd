import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signDelivery, SIGNATURE_HEADER } from '../../stores/webhookSignature';
import { eventually, ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const SECRET = `secret-${randomUUID()}`;
const scope = { userId: `user-${randomUUID()}`, datasetId: 'webhook' };
const received: {
  body: string;
  signature: string | undefined;
  delivery: string | undefined;
  timestamp: string | undefined;
}[] = [];

const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    received.push({
      body,
      signature: req.headers[SIGNATURE_HEADER] as string | undefined,
      delivery: req.headers['x-sluice-delivery'] as string | undefined,
      timestamp: req.headers['x-sluice-timestamp'] as string | undefined,
    });
    res.writeHead(204).end();
  });
});

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let tw: TestWorker;
let port: number;
beforeAll(async () => {
  port = await freePort();
  tw = await startTestWorker({
    config: testConfig({ SLUICE_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/sluice`, SLUICE_WEBHOOK_SECRET: SECRET }),
  });
});
afterAll(async () => {
  await tw.shutdown();
  await new Promise((resolve) => receiver.close(resolve));
});

it('delivers the result exactly once, signed, after the receiver comes back up', async () => {
  // The receiver is down while the pipeline finishes: the first deliveries are refused.
  const { documentId, taskId } = await ingestBuffer(tw, '# Hook\n\nNotify me when done.\n', 'hook.md', scope);
  const outbox = () =>
    tw.adapters.db.selectFrom('notifications').selectAll().where('document_id', '=', documentId).execute();
  await eventually(outbox, (rows) => rows.length === 1 && (rows[0]?.attempts ?? 0) >= 2, 30_000, 100);
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));

  const [row] = await eventually(outbox, (rows) => rows[0]?.status === 'DELIVERED', 60_000, 100);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  // Give a duplicate delivery, if there were one, time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(received).toHaveLength(1);
  const [delivery] = received;
  expect(delivery?.signature).toBe(
    signDelivery(SECRET, Number(delivery?.timestamp), delivery?.delivery ?? '', delivery?.body ?? ''),
  );
  expect(delivery?.delivery).toBe(String(row?.id));
  expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
    event: 'ingest.succeeded',
    documentId,
    taskId,
    status: 'SUCCESS',
  });
  expect(row?.attempts).toBeGreaterThanOrEqual(3);
  // The secret signs; it never travels through workflow history.
  const history = await tw.client.workflow.getHandle(`ingest:${documentId}`).fetchHistory();
  expect(JSON.stringify(history)).not.toContain(SECRET);
}, 120_000);

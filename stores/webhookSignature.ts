import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The result webhook's signature (docs/webhooks.md). Each delivery attempt carries its time and
 * the delivery's id, both under the HMAC, so a receiver can refuse a captured request replayed
 * later (the timestamp is too old) or again within the window (the delivery id was seen).
 */
export const SIGNATURE_HEADER = 'x-sluice-signature';
export const TIMESTAMP_HEADER = 'x-sluice-timestamp';
export const DELIVERY_HEADER = 'x-sluice-delivery';
/** How far a receiver should let a timestamp be from its own clock (docs/webhooks.md). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<delivery id>.<exact body>">`. */
export function signDelivery(secret: string, timestamp: number, deliveryId: string, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${deliveryId}.`, 'utf8').update(body, 'utf8');
  return `v1=${mac.digest('hex')}`;
}

export type VerifyOutcome = 'ok' | 'bad-signature' | 'stale' | 'malformed';

/**
 * What a receiver does: recompute the signature over the headers it got and compare in constant
 * time, then refuse a timestamp further than `toleranceSeconds` from `nowMs`. Dropping a delivery
 * id it has already seen (kept for the tolerance window) is the receiver's part.
 */
export function verifyDelivery(options: {
  secret: string;
  headers: Record<string, string | undefined>;
  body: string;
  nowMs: number;
  toleranceSeconds?: number;
}): VerifyOutcome {
  const { headers } = options;
  const signature = headers[SIGNATURE_HEADER];
  const timestampText = headers[TIMESTAMP_HEADER];
  const deliveryId = headers[DELIVERY_HEADER];
  if (!signature || !timestampText || !deliveryId || !/^\d{1,12}$/.test(timestampText)) return 'malformed';
  const timestamp = Number(timestampText);
  const expected = Buffer.from(signDelivery(options.secret, timestamp, deliveryId, options.body));
  const actual = Buffer.from(signature);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'bad-signature';
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  return Math.abs(options.nowMs / 1000 - timestamp) > tolerance ? 'stale' : 'ok';
}

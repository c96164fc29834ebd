import { permanentError, transientError } from '../contracts/sluiceError';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../outbound/outboundHttp';
import type { Notifier } from './notifier';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signDelivery, TIMESTAMP_HEADER } from './webhookSignature';

/**
 * Signed webhook delivery. A non-2xx answer or a network error is a transient
 * RESULT_NOTIFY_FAILED, so the activity retry policy backs off and tries again; a redirect or an
 * address the outbound policy refuses is permanent (trying again cannot help). The secret is only
 * ever used to sign, never logged, and the URL is never put in a message. Each attempt is signed
 * with its own timestamp and the delivery id (stores/webhookSignature.ts, docs/webhooks.md). The
 * answer's body is never read: only its status counts.
 */
export function createWebhookNotifier(options: {
  url: string;
  secret: string;
  timeoutMs?: number;
  outbound: OutboundPolicy;
  /** The clock the timestamp header is read from (tests pin it). */
  now?: () => number;
}): Notifier {
  const now = options.now ?? Date.now;
  return {
    async deliver(notification) {
      const body = JSON.stringify({ event: notification.event, ...notification.payload });
      const timestamp = Math.floor(now() / 1000);
      let status: number;
      try {
        const response = await outboundFetch(options.outbound, options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-sluice-event': notification.event,
            [DELIVERY_HEADER]: notification.deliveryId,
            [TIMESTAMP_HEADER]: String(timestamp),
            [SIGNATURE_HEADER]: signDelivery(options.secret, timestamp, notification.deliveryId, body),
          },
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        status = response.status;
        await response.body?.cancel();
      } catch (error) {
        if (error instanceof OutboundRefusedError)
          throw permanentError(
            'RESULT_NOTIFY_FAILED',
            `webhook delivery refused: ${error.message}`,
            new Error(error.detail),
          );
        throw transientError('RESULT_NOTIFY_FAILED', `webhook delivery failed (${fetchErrorCode(error)})`, error);
      }
      if (status < 200 || status >= 300)
        throw transientError('RESULT_NOTIFY_FAILED', `webhook answered HTTP ${status}`);
    },
  };
}

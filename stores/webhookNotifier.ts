import { createHmac } from 'node:crypto';
import { permanentError, transientError } from '../contracts/sluiceError';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../outbound/outboundHttp';
import type { Notifier } from './notifier';

export const SIGNATURE_HEADER = 'x-sluice-signature';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes>`, the form receivers verify. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Signed webhook delivery. A non-2xx answer or a network error is a transient
 * RESULT_NOTIFY_FAILED, so the activity retry policy backs off and tries again; a redirect or an
 * address the outbound policy refuses is permanent (trying again cannot help). The secret is only
 * ever used to sign, never logged, and the URL is never put in a message.
 */
export function createWebhookNotifier(options: {
  url: string;
  secret: string;
  timeoutMs?: number;
  outbound: OutboundPolicy;
}): Notifier {
  return {
    async deliver(notification) {
      const body = JSON.stringify({ event: notification.event, ...notification.payload });
      let status: number;
      try {
        const response = await outboundFetch(options.outbound, options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-sluice-event': notification.event,
            'x-sluice-delivery': notification.deliveryId,
            [SIGNATURE_HEADER]: signBody(options.secret, body),
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

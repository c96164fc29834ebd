import { createHmac } from 'node:crypto';
import type { Notifier } from './notifier';

export const SIGNATURE_HEADER = 'x-sluice-signature';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes>`, the form receivers verify. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Signed webhook delivery. Any non-2xx answer or network error throws, so the activity retry
 * policy backs off and tries again; the secret is only ever used to sign, never logged.
 */
export function createWebhookNotifier(options: { url: string; secret: string; timeoutMs?: number }): Notifier {
  return {
    async deliver(notification) {
      const body = JSON.stringify({ event: notification.event, ...notification.payload });
      const response = await fetch(options.url, {
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
      await response.body?.cancel();
      if (!response.ok) throw new Error(`webhook answered ${response.status}`);
    },
  };
}

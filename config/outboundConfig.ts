import { z } from 'zod';
import type { EnvOf } from './envShape';

/** One allow-list entry: a host name, an IPv4 address, either with a port, or a bracketed IPv6 address with an optional port. */
const ALLOWED_HOST = /^([\w.-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?)$/;

export const outboundEnv = {
  SLUICE_WEBHOOK_URL: z.url().optional().describe('Where results are posted, signed. Unset: results are logged.'),
  SLUICE_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Signs webhook bodies (16 characters or more); required with SLUICE_WEBHOOK_URL.'),
  SLUICE_OUTBOUND_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .describe('`true`: outbound HTTP to addresses users choose may reach private, loopback and link-local ones.'),
  SLUICE_OUTBOUND_ALLOW_HOSTS: z
    .string()
    .refine(
      (value) => value.split(',').every((host) => ALLOWED_HOST.test(host.trim())),
      'must be a comma-separated list of host, host:port or [IPv6]:port',
    )
    .optional()
    .describe('Comma-separated `host`, `host:port` or `[IPv6]:port` let through even at a private address.'),
};

export interface OutboundSettings {
  /** Result webhook; absent → results are logged. The secret signs bodies and is never logged. */
  webhook: { url: string; secret: string } | null;
  /**
   * Outbound HTTP to addresses users choose (embedding providers, the webhook): private,
   * loopback and link-local addresses are refused on every profile, except for the hosts named in
   * SLUICE_OUTBOUND_ALLOW_HOSTS (or everywhere with SLUICE_OUTBOUND_ALLOW_PRIVATE=true).
   */
  outbound: { allowPrivate: boolean; allowHosts: readonly string[] };
}

export function outboundSettings(e: EnvOf<typeof outboundEnv>, problems: string[]): OutboundSettings {
  if (e.SLUICE_WEBHOOK_URL && !e.SLUICE_WEBHOOK_SECRET)
    problems.push('SLUICE_WEBHOOK_SECRET: required when SLUICE_WEBHOOK_URL is set');
  return {
    webhook:
      e.SLUICE_WEBHOOK_URL && e.SLUICE_WEBHOOK_SECRET
        ? { url: e.SLUICE_WEBHOOK_URL, secret: e.SLUICE_WEBHOOK_SECRET }
        : null,
    outbound: {
      allowPrivate: e.SLUICE_OUTBOUND_ALLOW_PRIVATE === 'true',
      allowHosts: (e.SLUICE_OUTBOUND_ALLOW_HOSTS ?? '')
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    },
  };
}

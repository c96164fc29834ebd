import { z } from 'zod';
import type { EnvOf } from './envShape';
import type { Profile } from './storesConfig';

export const outboundEnv = {
  SLUICE_WEBHOOK_URL: z.url().optional(),
  SLUICE_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SLUICE_OUTBOUND_ALLOW_PRIVATE: z.enum(['true', 'false']).optional(),
};

export interface OutboundSettings {
  /** Result webhook; absent → results are logged. The secret signs bodies and is never logged. */
  webhook: { url: string; secret: string } | null;
  /**
   * Outbound HTTP to addresses users choose (embedding providers, the webhook): private,
   * loopback and link-local addresses are refused unless allowed (default: allowed on the local
   * profile only).
   */
  outbound: { allowPrivate: boolean };
}

export function outboundSettings(e: EnvOf<typeof outboundEnv>, profile: Profile, problems: string[]): OutboundSettings {
  if (e.SLUICE_WEBHOOK_URL && !e.SLUICE_WEBHOOK_SECRET)
    problems.push('SLUICE_WEBHOOK_SECRET: required when SLUICE_WEBHOOK_URL is set');
  return {
    webhook:
      e.SLUICE_WEBHOOK_URL && e.SLUICE_WEBHOOK_SECRET
        ? { url: e.SLUICE_WEBHOOK_URL, secret: e.SLUICE_WEBHOOK_SECRET }
        : null,
    outbound: {
      allowPrivate: e.SLUICE_OUTBOUND_ALLOW_PRIVATE ? e.SLUICE_OUTBOUND_ALLOW_PRIVATE === 'true' : profile === 'local',
    },
  };
}

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { hostOf, isPrivateAddress } from './host-policy.rules.js';

/**
 * Whether a host a site's settings name may be used (DESIGN §11): in production, none that is or
 * resolves to a loopback, link-local or private address, unless `ALLOWED_PRIVATE_HOSTS` lists it; outside
 * production every host (local SMTP servers, tests). A name that does not resolve yet is let through: the
 * service cannot reach it either, and refusing would block a site whose DNS is still propagating.
 */
@Injectable()
export class HostPolicy {
  constructor(
    @Inject(AppConfig) private readonly config: Pick<AppConfig, 'nodeEnv' | 'allowedPrivateHosts'>,
  ) {}

  /** Null when allowed, else why not. */
  async refusal(value: string): Promise<string | null> {
    if (this.config.nodeEnv !== 'production') return null;
    const host = hostOf(value);
    if (!host) return 'names no host';
    if (this.config.allowedPrivateHosts.includes(host)) return null;
    const addresses = isIP(host)
      ? [host]
      : await lookup(host, { all: true }).then(
          (found) => found.map((a) => a.address),
          () => [],
        );
    return addresses.some(isPrivateAddress)
      ? 'must not name a loopback, link-local or private address'
      : null;
  }
}

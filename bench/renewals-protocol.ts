import type { GatewayOneSettings, GatewayTwoSettings } from '#app/config/gateway-config.js';

/** What the orchestrator asks the renewals app process for, over IPC (one answer per `seq`). */
export type RenewalCommand =
  | { cmd: 'init'; databaseUrl: string; gatewayOne: GatewayOneSettings; gatewayTwo: GatewayTwoSettings }
  | { cmd: 'seed'; count: number; registrationId: string }
  | { cmd: 'run' }
  | { cmd: 'verify'; seeded: Seeded }
  | { cmd: 'close' };

export interface Seeded {
  siteId: string;
  tierId: string;
  count: number;
}

export interface RenewalRun {
  renewed: number;
  seconds: number;
  /** Resident memory before the run, and the most it reached during it (sampled every 10 ms). */
  rssBefore: number;
  peakRss: number;
  cpuMs: number;
}

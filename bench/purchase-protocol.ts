import type { GatewayOneSettings, GatewayTwoSettings } from '#app/config/gateway-config.js';

/** What the orchestrator asks the app process for, over IPC (one answer per request, matched by `seq`). */
export type AppCommand =
  | {
      cmd: 'init';
      databaseUrl: string | undefined;
      gatewayOne: GatewayOneSettings;
      gatewayTwo: GatewayTwoSettings;
      mailTransport: string;
      jobs: boolean;
    }
  | { cmd: 'setup' }
  | { cmd: 'template'; itemId: string }
  | { cmd: 'clone'; templateId: string; count: number }
  | { cmd: 'trace'; paymentId: string }
  | { cmd: 'cpu' }
  | { cmd: 'profile-start' }
  | { cmd: 'profile-stop'; file: string }
  | { cmd: 'close' };

export interface InitAnswer {
  /** The app's HTTP address on loopback. */
  url: string;
  /** The database it uses (the embedded one's loopback address when none was given). */
  databaseUrl: string;
}

export interface PaidOrder {
  paymentId: string;
  checkoutId: string;
  amount: string;
  currency: string;
  /** The buyer's address (where the purchase e-mail goes). */
  email: string;
}

/** Figures of one load run (autocannon in its own process). */
export interface LoadResult {
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
  setupCalls: number;
  /** The load generator's own CPU over the run (ms). */
  cpuMs: number;
}

export interface LoadOrder {
  url: string;
  ids: string[];
  connections: number;
  ipBase: number;
  /** Where to write each answer's time and latency (`BENCH_TIMINGS`), a file per run. */
  timingsDir?: string;
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** How long no request may be in flight before the listener closes: time to accept what is queued. */
const QUIET_MS = 300;
/** Under steady traffic the drain never goes quiet: after this the listener closes regardless. */
const MAX_DRAIN_MS = 10_000;

/**
 * The first half of a graceful shutdown (DESIGN §9). Closing the listener at once resets every
 * connection the kernel has accepted but the process has not yet read — a client that sent its
 * request sees ECONNRESET, not a refusal — and Node's `server.close()` also destroys connections whose
 * request is not parsed yet. So on SIGTERM the instance first drains: readiness answers 503 (the load
 * balancer stops sending), every response says `Connection: close` (keep-alive clients reconnect
 * elsewhere), and the listener stays open until nothing has been in flight for a moment. Only then does
 * the application close (listener, in-flight requests, jobs, pool).
 */
@Injectable()
export class HttpDrain implements OnApplicationBootstrap {
  private readonly open = new Set<ServerResponse>();
  private lastActivity = 0;
  private draining = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    // First among the listeners, so the header is set before the application can answer.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => this.track(res));
  }

  /** True once the instance has been told to stop: readiness answers 503 from then on. */
  get isDraining(): boolean {
    return this.draining;
  }

  /** Resolves when no request has been in flight for QUIET_MS, or after MAX_DRAIN_MS. */
  async drain(quietMs = QUIET_MS, maxMs = MAX_DRAIN_MS): Promise<void> {
    this.draining = true;
    for (const res of this.open) closeAfter(res);
    const deadline = performance.now() + maxMs;
    this.lastActivity = performance.now();
    while (performance.now() < deadline) {
      const quietFor = performance.now() - this.lastActivity;
      if (this.open.size === 0 && quietFor >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, quietMs - quietFor)));
    }
  }

  private track(res: ServerResponse): void {
    this.open.add(res);
    this.lastActivity = performance.now();
    if (this.draining) closeAfter(res);
    res.once('close', () => {
      this.open.delete(res);
      this.lastActivity = performance.now();
    });
  }
}

/** Asks Node to end the connection once this response is written (a no-op once headers are out). */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is shorter than the idle timeout
 * of the load balancers the instances sit behind (60 s on the common ones, DESIGN §2): the instance would
 * close a connection the balancer has just chosen to reuse, and the balancer answers that request 502. The
 * server must be the side that waits longer. The same race drops a client's next request whenever the event
 * loop stalls past the timeout between an answer and the next request (the mixed-load test lost 8 requests to
 * it on a loaded CI machine).
 */
export const KEEP_ALIVE_MS = 65_000;

/** Longer than the keep-alive: a reused connection's next request gets the whole window to send its headers. */
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_MS + 1_000;

export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
}

import { createServer } from 'node:http';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_MS, keepConnectionsAlive } from './keep-alive.js';

describe('keepConnectionsAlive', () => {
  it('keeps idle connections past a load balancer’s 60 s idle timeout, and headers within the request timeout', () => {
    const server = createServer();
    keepConnectionsAlive(server);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
    // Node refuses a headers timeout above the whole request's (300 s by default).
    expect(server.headersTimeout).toBeLessThan(server.requestTimeout);
  });
});

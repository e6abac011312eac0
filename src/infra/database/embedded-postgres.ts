import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** How many client connections the embedded server multiplexes: every pool in the process must fit. */
export const EMBEDDED_MAX_CONNECTIONS = 32;

export interface EmbeddedPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

/** Extended-protocol messages that leave a statement unfinished until the client's Sync. */
const STATEMENT_CONTINUES = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * pglite-socket serves every connection through one queue and keeps a connection's messages together
 * only inside a transaction. PGlite is one session, so a statement's Parse, Bind, Describe, Execute
 * and Sync from one connection interleaved with another's bind one client's parameters to the other's
 * statement (seen under concurrent requests: "bind message supplies 2 parameters, but prepared
 * statement "" requires 1" — or, with matching shapes, silently wrong rows). Reporting "in a
 * transaction" from a statement's first message until its Sync makes the queue finish that
 * connection's statement before serving another.
 */
export function keepStatementsWhole<T extends object>(db: T): T {
  let statementOpen = false;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property === 'isInTransaction' && typeof value === 'function')
        return () => statementOpen || (value as () => boolean).call(target);
      if (property === 'execProtocolRawStream' && typeof value === 'function')
        return (message: Uint8Array, options: unknown) => {
          statementOpen = message.length > 0 && STATEMENT_CONTINUES.has(message[0]);
          return (value as (m: Uint8Array, o: unknown) => unknown).call(target, message, options);
        };
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The embedded default (DESIGN §2): real PostgreSQL compiled to WASM, kept in `<dataDir>/pglite`
 * (or in memory when `dataDir` is null) and served on loopback, so the application reaches it with
 * the same `pg` pool as a production server and nothing above the connection string can tell.
 */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  let dir: string | undefined;
  if (dataDir) {
    dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const db = await PGlite.create(dir);
  const port = await freeLoopbackPort();
  const server = new PGLiteSocketServer({
    db: keepStatementsWhole(db),
    host: '127.0.0.1',
    port,
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

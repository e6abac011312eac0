import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** How many client connections the embedded server multiplexes: every pool in the process must fit. */
export const EMBEDDED_MAX_CONNECTIONS = 32;

export interface EmbeddedPostgres {
  readonly url: string;
  stop(): Promise<void>;
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

/** Frontend messages of the extended query protocol that a later Sync ('S') completes. */
const EXTENDED_PROTOCOL = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

interface ProtocolDb {
  isInTransaction(): boolean;
  execProtocolRawStream(message: Uint8Array, options?: unknown): Promise<void>;
}

/**
 * pglite-socket runs every connection's messages on PGlite's one backend, one message at a time, and
 * keeps to one connection only while it is inside a transaction. A parameterised query is several
 * messages (Parse, Bind, Describe, Execute, then Sync), so another connection's Parse could land
 * between them and replace the unnamed statement: the first connection then ran the other's SQL with
 * its own parameters (wrong rows, or "bind message supplies 1 parameters, but prepared statement
 * requires 2"), typically when one request's queries met another's transaction. Reporting "in a
 * transaction" from a Parse until its Sync makes the queue keep such a sequence whole.
 */
function keepExtendedQueriesWhole<T extends ProtocolDb & object>(db: T): T {
  let midSequence = false;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'isInTransaction') return () => midSequence || target.isInTransaction();
      if (prop === 'execProtocolRawStream')
        return (message: Uint8Array, options?: unknown) => {
          midSequence = EXTENDED_PROTOCOL.has(message[0]);
          return target.execProtocolRawStream(message, options);
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
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
    db: keepExtendedQueriesWhole(db),
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

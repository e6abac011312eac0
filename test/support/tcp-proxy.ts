import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP proxy on loopback in front of the test database, which a test can cut off as a restart would. */
export interface TcpProxy {
  /** `target`'s connection string with this proxy's host and port. */
  url: string;
  /** Connections forwarded since the proxy started (a pool that reconnects after an outage adds some). */
  readonly accepted: number;
  /**
   * The database "restarts": every open connection is reset at once, and every new one is reset as soon
   * as it is accepted, until `restore()`.
   */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * Ends a connection with a reset (RST), as a restarting database does, where the socket still allows one.
 * A socket whose sending half is already closed (pipe() ends it when the other side ends) or not yet
 * connected is destroyed instead: libuv refuses a reset once a shutdown is under way (EINVAL), and Node
 * then marks the handle closing without ever closing it. Nothing shows until the process exits, where
 * Node waits for that handle for ever, spinning: the whole e2e run stayed busy after its summary
 * (docs/DECISIONS.md, "A run that did not exit").
 */
function reset(socket: Socket): void {
  if (socket.writableEnded || socket.connecting) socket.destroy();
  else socket.resetAndDestroy();
}

/**
 * Forwards byte for byte to the database `target` names (a `postgres://` URL), so the service's
 * DATABASE_URL can point here. Nothing here parses the protocol: an outage is the sockets going away,
 * which is what a client sees when PostgreSQL restarts or its host reboots.
 */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const to = new URL(target);
  const open = new Set<Socket>();
  let down = false;
  let accepted = 0;

  const server = createServer((client) => {
    if (down) {
      reset(client);
      return;
    }
    accepted++;
    const upstream = createConnection({ host: to.hostname, port: Number(to.port || 5432) });
    const pair = [client, upstream];
    for (const socket of pair) {
      open.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined); // the other side is ended below
      socket.on('close', () => {
        open.delete(socket);
        for (const other of pair) if (!other.destroyed) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);

  const resetAll = (): void => {
    for (const socket of [...open]) reset(socket);
  };
  return {
    url: url.toString(),
    get accepted() {
      return accepted;
    },
    cut() {
      down = true;
      resetAll();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        resetAll();
        server.close(() => resolve());
      }),
  };
}

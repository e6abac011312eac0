import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';

/** A loopback port nobody listens on right now (for servers whose address must be known before they start). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A loopback port held until `release()`: for an in-process server that must know its address long before
 * it listens. While held, the kernel gives the port to no outgoing connection either; a port only looked up
 * (`freePort`) was taken meanwhile by one of the app's own database connections (an ephemeral port), and
 * the app's listen failed with EADDRINUSE. Release it just before listening.
 */
export async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * This machine's own address on a network interface (not loopback), if it has one: a server listening there is
 * still on this machine, but the app cannot tell it from a server across a network.
 */
export function outwardAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

/**
 * Whether a thrown value says the database could not be reached or dropped the connection (DESIGN §4:
 * "503 when the database is down"), as opposed to a statement the database refused. The client can
 * retry such a request later; a refused statement is our bug (500).
 *
 * Where these surface: `pg` rejects a pool checkout with the socket's error (`ECONNREFUSED`,
 * `ECONNRESET`) or its own ("timeout exceeded when trying to connect"), a query on a connection that
 * died with "Connection terminated unexpectedly" or "Client has encountered a connection error and is
 * not queryable"; a server that shuts down or restarts sends SQLSTATE class 57P (admin shutdown, crash
 * shutdown, cannot connect now) and class 08 (connection exception); a full server 53300. TypeORM wraps
 * a query's error in `QueryFailedError` with the original as `driverError`, which is followed. `cause` is
 * not: a provider call's `fetch failed` carries its socket error there, and a gateway that refuses a
 * connection is a 502 of its own (DESIGN §4), not a database outage.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** SQLSTATEs meaning "not now" rather than "not this statement". */
const SQLSTATES = /^(08...|57P0[1-3]|53300)$/;

const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Connection is not open|connect ECONNREFUSED|read ECONNRESET|write EPIPE|connect ETIMEDOUT|the database system is (starting up|shutting down|in recovery mode)/;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, message, driverError } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  return isDatabaseUnavailable(driverError, depth + 1);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeGatewayOne } from './fake-gatewayone.js';

/** A checkout's status read below the mount: its id, then its query string. */
const PAYMENT_READ = /^\/v1\/checkouts\/([^/?#]+)\/payment(\?[^#]*)?$/;

/** A path segment decoded, or undefined when it is malformed (left to Express, which refuses it). */
function decodedOrUndefined(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Answers a checkout's status read (`GET /v1/checkouts/{id}/payment?entityId=`, `path` below the mount)
 * straight off Node's HTTP server, without Express, and returns true; false, touching nothing, for any
 * other request (a malformed id too) or while a control (latency, outage, failures) is set. For a load
 * test's harness, whose CPU competes with the app's on one machine: through Express, the read every
 * confirmation makes cost the purchase benchmark's fake 0.54-0.78 ms of CPU, and 0.39-0.50 this way. The
 * same answer as the route (`FakeGatewayOne.paymentRead`); no request log is kept.
 */
export function answerPaymentRead(
  fake: FakeGatewayOne,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const match = req.method === 'GET' && fake.controlsIdle ? PAYMENT_READ.exec(path) : null;
  if (!match) return false;
  const id = decodedOrUndefined(match[1]);
  if (id === undefined) return false;
  // As Express's query parser has it: a repeated entityId is a list (and refused as no entity).
  const entities = new URLSearchParams(match[2]).getAll('entityId');
  const { status, body } = fake.paymentRead(
    id,
    req.headers.authorization,
    entities.length > 1 ? entities : entities[0],
  );
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
  return true;
}

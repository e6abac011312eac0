import type { LoadOrder, LoadResult } from './purchase-protocol.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timedLoad, type Answer } from './timed-load.js';

const ipOf = (n: number): string => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/**
 * The load process: autocannon, each request confirming the next order id, as its own client IP behind
 * the trusted loopback proxy (the per-IP order limit then applies per buyer, as in life).
 */
function runLoad(order: LoadOrder): Promise<LoadResult> {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const answers: Answer[] | undefined = order.timingsDir ? [] : undefined;
  return timedLoad(
    {
      url: order.url,
      connections: order.connections,
      amount: order.ids.length,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          path: '/gatewayone/create-order',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => {
            const i = next++;
            return {
              ...req,
              headers: { ...req.headers, 'x-forwarded-for': ipOf(order.ipBase + i) },
              body: JSON.stringify({ confirmation_only: true, order_id: order.ids[i % order.ids.length] }),
            };
          },
        },
      ],
    },
    answers,
  ).then((r) => {
    if (order.timingsDir && answers)
      writeFileSync(
        join(order.timingsDir, `c${order.connections}-${Date.now()}.json`),
        JSON.stringify(answers),
      );
    return {
      ok: r['2xx'],
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
      seconds: r.answeredSeconds,
      p50: r.latency.p50,
      p99: r.latency.p99,
      setupCalls: next,
      cpuMs: cpuMsSince(cpuBefore),
    };
  });
}

function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

process.once('message', (order: LoadOrder) => {
  runLoad(order)
    .then((result) => process.send?.(result, () => process.exit(0)))
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
});

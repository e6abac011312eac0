import 'reflect-metadata';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { CHARGES_IN_FLIGHT, RUN_LANES } from '#app/modules/subscriptions/jobs/renewals.job.js';
import { startFakeGateways } from '../test/support/fake-gateways.js';
import { serviceNodeFlags } from '../test/support/node-flags.js';
import { IpcChild } from './ipc-child.js';
import type { RenewalCommand, RenewalRun, Seeded } from './renewals-protocol.js';

/**
 * `npm run bench:renewals`: the renewal run (the `renewals` job) over 10,000 then 100,000 due memberships
 * seeded set-based, each charged through its stored card at the loopback fake gatewayone (in this
 * process) and renewed. The app runs in a process of its own, whose resident memory is sampled; a bare
 * client making the same charges at the same width from a third process is the baseline. Prints
 * memberships renewed per second, the ratio to the bare charges, CPU per renewal and the peak RSS at each
 * size: the rate should hold and the memory stay flat as the count grows tenfold (batches, never all rows).
 */
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function bare(settings: unknown, registrationId: string, count: number): Promise<number> {
  const child = fork(join(__dirname, 'renewals-bare.js'), [], {
    execArgv: serviceNodeFlags(),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise<number>((resolve, reject) => {
    child.once('message', (m: { seconds: number }) => resolve(count / m.seconds));
    child.once('exit', (code) => (code ? reject(new Error(`bare client exited with ${code}`)) : undefined));
    child.send({ settings, registrationId, count, width: CHARGES_IN_FLIGHT * RUN_LANES });
  });
}

async function main(): Promise<void> {
  const name = `bench_renewals_${Date.now()}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const fakes = await startFakeGateways({ timeoutMs: 30_000 });
  const registrationId = fakes.gatewayOne.registerCard();
  const process_ = fork(join(__dirname, 'renewals-app.js'), [], {
    execArgv: [...serviceNodeFlags(), '--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const app = new IpcChild<RenewalCommand>(process_, 'renewals app');
  const results: Array<{ size: number; run: RenewalRun; bare: number; problems: string[] }> = [];
  try {
    await app.ask({ cmd: 'init', databaseUrl: url.toString(), ...fakes.config });
    for (const size of SIZES) {
      const seeded = await app.ask<Seeded>({ cmd: 'seed', count: size, registrationId });
      const run = await app.ask<RenewalRun>({ cmd: 'run' });
      const problems = await app.ask<string[]>({ cmd: 'verify', seeded });
      if (run.renewed !== size) problems.push(`the run answered ${run.renewed} renewed`);
      const bareRate = await bare(fakes.config.gatewayOne, registrationId, Math.min(size, 20_000));
      results.push({ size, run, bare: bareRate, problems });
      const rate = run.renewed / run.seconds;
      out(
        `${String(size).padStart(7)} due: ${rate.toFixed(0).padStart(5)} renewals/s in ${run.seconds.toFixed(1)} s, ` +
          `cpu ${(run.cpuMs / size).toFixed(2)} ms each, RSS ${mb(run.rssBefore)} → peak ${mb(run.peakRss)}   ` +
          `bare charges ${bareRate.toFixed(0)}/s, ratio ${(rate / bareRate).toFixed(2)}` +
          (problems.length ? `   INCORRECT: ${problems.join('; ')}` : '   checks ok'),
      );
      if (problems.length) process.exitCode = 1;
    }
  } finally {
    await app.ask({ cmd: 'close' }).catch(() => undefined);
    await fakes.close();
    if (!process.env.BENCH_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  out(
    JSON.stringify({
      bench: 'renewals',
      sizes: results.map((r) => ({
        due: r.size,
        renewals_per_s: Math.round(r.run.renewed / r.run.seconds),
        seconds: Number(r.run.seconds.toFixed(2)),
        cpu_ms_each: Number((r.run.cpuMs / r.size).toFixed(3)),
        rss_before_mb: Math.round(r.run.rssBefore / 2 ** 20),
        peak_rss_mb: Math.round(r.run.peakRss / 2 ** 20),
        bare_charges_per_s: Math.round(r.bare),
        ratio: Number((r.run.renewed / r.run.seconds / r.bare).toFixed(2)),
        correct: r.problems.length === 0,
      })),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

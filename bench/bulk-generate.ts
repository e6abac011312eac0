import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createApplication } from '#app/bootstrap.js';
import { loadConfig } from '#app/config/load-config.js';
import { startEmbeddedPostgres } from '#app/infra/database/embedded-postgres.js';
import { ALPHANUMERIC_ALPHABET, drawCodes } from '#app/modules/discounts/bulk-codes.rules.js';
import { BulkGenerateService } from '#app/modules/discounts/bulk-generate.service.js';
import { CatalogueService } from '#app/modules/discounts/catalogue.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';

/**
 * `npm run bench:bulk-generate`: times endpoint 8's code path (BulkGenerateService: transaction, checks,
 * advisory lock, code-space count, draw, set-based insert, the response's reads) generating 10,000
 * codes, against a bare `INSERT … SELECT FROM unnest` of 10,000 pre-made codes through the same pool,
 * on embedded PGlite (in memory) and on PostgreSQL (BENCH_DATABASE_URL, a throwaway database).
 * Prints the medians of BENCH_REPS repetitions (after one warm-up) and their ratio.
 */
const COUNT = 10_000;
const CODE_LENGTH = 8;
const REPS = Number(process.env.BENCH_REPS ?? 7);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

interface Result {
  engine: string;
  service: number[];
  baseline: number[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function run(engine: string, url: string): Promise<Result> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
    LOG_LEVEL: 'silent',
    JOBS: 'off',
    ADMIN_EMAIL: undefined,
    ADMIN_PASSWORD: undefined,
  });
  const app = await createApplication(config);
  const result: Result = { engine, service: [], baseline: [] };
  try {
    const siteId = `bench-${randomBytes(4).toString('hex')}`;
    await app.app.get(SitesService).ensureSite(siteId, 'Benchmark', null);
    const brand = await app.app.get(CatalogueService).createBrand(siteId, { name: 'Benchmark brand' });
    const bulk = app.app.get(BulkGenerateService);
    const db = app.app.get<DataSource>(getDataSourceToken());
    const admin = {
      id: randomUUID(),
      siteId,
      role: 'admin' as const,
      email: 'bench@example.com',
      jti: 'bench',
    };
    for (let rep = 0; rep <= REPS; rep++) {
      const body = {
        code_length: CODE_LENGTH,
        count: COUNT,
        discount_brand_id: brand.id,
        points_required: 100,
        title: `Bench ${rep}`,
        prefix: `S${rep}-`,
      };
      let codeId = '';
      const service = await time(async () => {
        const res = await bulk.generate(admin, siteId, body);
        if (res.generated_count !== COUNT) throw new Error(`generated ${res.generated_count}`);
        codeId = res.id;
      });
      const premade = drawCodes(COUNT, {
        prefix: `B${rep}-`,
        alphabet: ALPHANUMERIC_ALPHABET,
        length: CODE_LENGTH,
      });
      const baseline = await time(() =>
        db.query(
          `INSERT INTO discount_unique_codes (site_id, discount_code_id, code)
           SELECT $1, $2, c FROM unnest($3::text[]) AS c`,
          [siteId, codeId, premade],
        ),
      );
      if (rep === 0) continue; // warm-up
      result.service.push(service);
      result.baseline.push(baseline);
    }
  } finally {
    await app.close();
  }
  return result;
}

function report(r: Result): void {
  const s = median(r.service);
  const b = median(r.baseline);
  const fmt = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(' ');
  process.stdout.write(
    `${r.engine.padEnd(10)} service ${s.toFixed(1).padStart(7)} ms   bare INSERT…SELECT ${b.toFixed(1).padStart(7)} ms   ` +
      `ratio ${(s / b).toFixed(2)}×\n` +
      `${''.padEnd(10)} samples: service [${fmt(r.service)}] bare [${fmt(r.baseline)}]\n`,
  );
}

async function main(): Promise<void> {
  process.stdout.write(
    `bulk-generate: ${COUNT} codes of ${CODE_LENGTH} characters, median of ${REPS} runs\n`,
  );
  const embedded = await startEmbeddedPostgres(null);
  try {
    report(await run('PGlite', embedded.url));
  } finally {
    await embedded.stop();
  }

  const name = `bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(SERVER);
    url.pathname = `/${name}`;
    report(await run('PostgreSQL', url.toString()));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

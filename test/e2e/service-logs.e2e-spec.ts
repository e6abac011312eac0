import { randomBytes } from 'node:crypto';
import { type FakeGateways, startFakeGateways } from '../support/fake-gateways';
import { callService, type ServiceProcess, startService } from '../support/service-process';

interface LogLine {
  request_id?: string;
  req?: { url?: string };
  res?: { statusCode?: number };
}

/**
 * The service's logs as an operator reads them: standard output of `node dist/src/main.js`, which gathers
 * lines before writing them (STDOUT_LOG). A line written in a quiet moment still comes out within about a
 * second, and nothing gathered is lost when the service is stopped.
 */
describe('the service logs to standard output', () => {
  const SITE = `logs-${randomBytes(3).toString('hex')}`;
  let fakes: FakeGateways;
  let service: ServiceProcess;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    fakes = await startFakeGateways();
    service = await startService({
      fakes,
      siteId: SITE,
      databaseUrl: process.env.TEST_DATABASE_URL ? process.env.E2E_DATABASE_URL : undefined,
      jobs: false,
      stdout: 'pipe',
      env: { LOG_LEVEL: 'info' },
    });
    let rest = '';
    service.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const part of parts) if (part) lines.push(JSON.parse(part) as LogLine);
    });
  }, 90_000);

  afterAll(async () => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await fakes.close();
  });

  const lineOf = (path: string): LogLine | undefined => lines.find((l) => l.req?.url === path);

  it('writes a request line within seconds, with the id the answer carried', async () => {
    const path = `/no-such-page-${randomBytes(3).toString('hex')}`;
    const res = await callService(service.base, path);
    expect(res.status).toBe(404);
    const deadline = Date.now() + 10_000;
    while (!lineOf(path) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(lineOf(path)).toMatchObject({
      request_id: res.headers.get('x-request-id'),
      res: { statusCode: 404 },
    });
  });

  it('writes out what it gathered when it is stopped', async () => {
    const paths = Array.from({ length: 5 }, (_, i) => `/stopped-${i}-${randomBytes(3).toString('hex')}`);
    for (const path of paths) expect((await callService(service.base, path)).status).toBe(404);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(paths.filter((p) => !lineOf(p))).toEqual([]);
  }, 30_000);
});

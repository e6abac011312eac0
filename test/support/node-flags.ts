import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project's package.json, found upwards (sources run from `test/support`, the benchmarks from `dist/test/support`). */
function packageJson(): { scripts: Record<string, string> } {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file))
      return JSON.parse(readFileSync(file, 'utf8')) as { scripts: Record<string, string> };
    if (dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}

/**
 * The flags `npm run start:prod` gives node (the heap's young generation, DECISIONS): a process that runs the
 * service as production does, in a test or a benchmark, runs with them too.
 */
export function serviceNodeFlags(): string[] {
  const command = packageJson().scripts['start:prod'];
  if (!command) throw new Error('package.json has no start:prod script');
  return command.split(/\s+/).filter((arg) => arg.startsWith('--'));
}

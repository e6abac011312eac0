import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the `log` transport keeps messages: `<DATA_DIR>/outbox/<site_id>/<time>-<kind>.eml`. */
export async function writeToOutbox(
  dataDir: string,
  siteId: string,
  kind: string,
  raw: Buffer,
): Promise<string> {
  const dir = join(dataDir, 'outbox', siteId.replace(/[^a-z0-9_-]/gi, '_'));
  await mkdir(dir, { recursive: true });
  const file = join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${kind}-${process.hrtime.bigint()}.eml`,
  );
  await writeFile(file, raw);
  return file;
}

import { mkdir, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One message the `log` transport wrote, as the admin outbox lists it. */
export interface OutboxEntry {
  id: string;
  kind: string | null;
  to: string | null;
  subject: string | null;
  created_at: string;
}

/** File names are `<ISO time>-<sequence>-<kind>.eml`: sorting them sorts by time. */
const FILE_NAME = /^\d{4}-\d{2}-\d{2}T[\d-]+Z-\d{20}-[a-z_]+\.eml$/;
const HEAD_BYTES = 16 * 1024;

function siteDir(dataDir: string, siteId: string): string {
  return join(dataDir, 'outbox', siteId.replace(/[^a-z0-9_-]/gi, '_'));
}

/**
 * Where the `log` transport keeps links into staff accounts: outside every site's folder, so no site's admin
 * can read them through the outbox routes (they are read on the server's disk).
 */
export const STAFF_OUTBOX = Symbol('staff outbox');

function folderOf(dataDir: string, owner: string | typeof STAFF_OUTBOX): string {
  return owner === STAFF_OUTBOX ? join(dataDir, 'outbox-staff') : siteDir(dataDir, owner);
}

export function isOutboxId(id: string): boolean {
  return FILE_NAME.test(id);
}

/** Where the `log` transport keeps messages: `<DATA_DIR>/outbox/<site_id>/<name>.eml`. */
export async function writeToOutbox(
  dataDir: string,
  owner: string | typeof STAFF_OUTBOX,
  kind: string,
  raw: Buffer,
): Promise<string> {
  const dir = folderOf(dataDir, owner);
  await mkdir(dir, { recursive: true });
  const time = new Date().toISOString().replace(/[:.]/g, '-');
  const sequence = process.hrtime.bigint().toString().padStart(20, '0');
  const id = `${time}-${sequence}-${kind}.eml`;
  await writeFile(join(dir, id), raw);
  return id;
}

/** Newest first; `before` is the id the previous page ended with. */
export async function listOutbox(
  dataDir: string,
  siteId: string,
  limit: number,
  before?: string,
): Promise<OutboxEntry[]> {
  const dir = siteDir(dataDir, siteId);
  const names = await readdir(dir).catch(() => [] as string[]);
  const page = names
    .filter((n) => isOutboxId(n) && (!before || n < before))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(page.map((id) => entryOf(dir, id)));
}

export async function readOutbox(
  dataDir: string,
  siteId: string,
  id: string,
): Promise<(OutboxEntry & { raw: string }) | null> {
  if (!isOutboxId(id)) return null;
  const dir = siteDir(dataDir, siteId);
  const raw = await readFile(join(dir, id), 'utf8').catch(() => null);
  if (raw === null) return null;
  return { ...(await entryOf(dir, id, raw)), raw };
}

async function entryOf(dir: string, id: string, raw?: string): Promise<OutboxEntry> {
  const path = join(dir, id);
  const head = raw ?? (await readHead(path));
  const headers = parseHeaders(head);
  const created = await stat(path);
  return {
    id,
    kind: headers['x-mail-kind'] ?? null,
    to: headers.to ? decodeWords(headers.to) : null,
    subject: headers.subject ? decodeWords(headers.subject) : null,
    created_at: created.mtime.toISOString(),
  };
}

async function readHead(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/** The header block of a raw message, folded lines joined, names in lower case. */
export function parseHeaders(raw: string): Record<string, string> {
  const [head] = raw.split(/\r?\n\r?\n/, 1);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] ??= line.slice(at + 1).trim();
  }
  return headers;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as mail libraries write non-ASCII headers. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([\w-]+)\?([QB])\?([^?]*)\?=/gi, (_m, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_q, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return /^utf-?8$/i.test(charset) ? bytes.toString('utf8') : bytes.toString('latin1');
    });
}

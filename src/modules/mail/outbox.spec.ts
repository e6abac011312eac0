import { mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWords, isOutboxId, listOutbox, parseHeaders, readOutbox, writeToOutbox } from './outbox.js';

const eml = (to: string, subject: string, kind: string): Buffer =>
  Buffer.from(`To: ${to}\nSubject: ${subject}\nX-Mail-Kind: ${kind}\n\nbody of ${kind}\n`);

describe('the outbox of the log transport', () => {
  it('lists a site’s messages newest first, paged by id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const first = await writeToOutbox(dir, 'shop', 'welcome', eml('a@x.example', 'Welcome', 'welcome'));
    const second = await writeToOutbox(
      dir,
      'shop',
      'magic_link',
      eml('b@x.example', 'Sign in', 'magic_link'),
    );
    await writeToOutbox(dir, 'other', 'welcome', eml('c@x.example', 'Other', 'welcome'));
    const page = await listOutbox(dir, 'shop', 10);
    expect(page.map((e) => e.id)).toEqual([second, first]);
    expect(page[0]).toMatchObject({ kind: 'magic_link', to: 'b@x.example', subject: 'Sign in' });
    expect(new Date(page[0].created_at).toISOString()).toBe(page[0].created_at);
    expect((await listOutbox(dir, 'shop', 1)).map((e) => e.id)).toEqual([second]);
    expect((await listOutbox(dir, 'shop', 10, second)).map((e) => e.id)).toEqual([first]);
  });

  it('is empty for a site that never logged a message', async () => {
    expect(await listOutbox(mkdtempSync(join(tmpdir(), 'outbox-')), 'none', 10)).toEqual([]);
  });

  it('reads one message whole, and nothing outside the site’s folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const id = await writeToOutbox(dir, 'shop', 'welcome', eml('a@x.example', 'Welcome', 'welcome'));
    utimesSync(join(dir, 'outbox', 'shop', id), new Date(), new Date());
    expect((await readOutbox(dir, 'shop', id))?.raw).toContain('body of welcome');
    expect(await readOutbox(dir, 'other', id)).toBeNull();
    expect(await readOutbox(dir, 'shop', '../other/x.eml')).toBeNull();
    expect(isOutboxId('../../secrets.json')).toBe(false);
    expect(isOutboxId(id)).toBe(true);
  });

  it('decodes the encoded words mail libraries write for non-ASCII headers', () => {
    expect(decodeWords('=?UTF-8?Q?Your_5_tickets_=E2=80=93_Dream_Car?=')).toBe('Your 5 tickets – Dream Car');
    expect(decodeWords('=?UTF-8?B?V2VsY29tZSDinJM=?=')).toBe('Welcome ✓');
    expect(decodeWords('=?UTF-8?Q?a?= =?UTF-8?Q?b?=')).toBe('ab');
    expect(decodeWords('plain')).toBe('plain');
  });

  it('reads folded headers, the first of a repeated name', () => {
    expect(parseHeaders('Subject: a\n long\nX-Mail-Kind: welcome\nSubject: b\n\nbody')).toEqual({
      subject: 'a long',
      'x-mail-kind': 'welcome',
    });
  });
});

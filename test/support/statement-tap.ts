import { Client } from 'pg';

/** One message of SQL the app sent, with the connection it went on. */
export interface Sent {
  client: unknown;
  /** The statements of one message, in order (several travel together in the simple protocol). */
  statements: string[];
  /** The message as sent. */
  raw: string;
  /** The pg driver's statement name, when it went as a named (kept) statement. */
  name?: string;
}

/**
 * Statements PostgreSQL keeps planned per connection (`keepPlan`) travel as `PREPARE name AS <sql>` on
 * their first use on a connection and as `EXECUTE name(…)` after; the tap reads each EXECUTE as the SQL it
 * runs and drops the PREPARE (it runs nothing), so assertions hold on both engines. Install it before the
 * app starts, so it has seen every PREPARE.
 */
const prepared = new Map<string, string>();
let tapped: Sent[] | undefined;
const untapped = Client.prototype.query;

function statementsOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/;\n/)) {
    const t = raw.replace(/\s+/g, ' ').trim();
    const prepare = /^PREPARE (\w+) AS (.*)$/is.exec(t);
    if (prepare) {
      prepared.set(prepare[1], prepare[2]);
      continue;
    }
    const execute = /^EXECUTE (\w+)/i.exec(t);
    out.push(execute ? (prepared.get(execute[1]) ?? t) : t);
  }
  return out;
}

/** Starts seeing every message the pg client sends (TypeORM's statements and raw ones alike). */
export function tapStatements(): void {
  Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; name?: string };
    const raw = typeof q === 'string' ? q : (q.text ?? '');
    const statements = statementsOf(raw); // read always: a PREPARE outside a window still names a plan
    tapped?.push({ client: this, statements, raw, name: typeof q === 'string' ? undefined : q.name });
    return (untapped as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof untapped;
}

export function untapStatements(): void {
  Client.prototype.query = untapped;
}

/**
 * Every message of SQL the app sends while `work` runs, with the connection it went on, on PostgreSQL and
 * on the embedded database. A message of several statements is split where the app joins them (`;` at a
 * line's end).
 */
export async function messagesOf(work: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  tapped = sent;
  try {
    await work();
  } finally {
    tapped = undefined;
  }
  return sent;
}

/**
 * The statements that went on `client` after the first one matching `locks`, in order, across messages:
 * what a transaction ran while it held the row that statement locked.
 */
export function statementsAfter(sent: Sent[], locks: RegExp): string[] {
  const flat = sent.flatMap((m) => m.statements.map((statement) => ({ client: m.client, statement })));
  const at = flat.findIndex((s) => locks.test(s.statement));
  if (at < 0) throw new Error(`no statement matched ${String(locks)}`);
  return flat
    .slice(at + 1)
    .filter((s) => s.client === flat[at].client)
    .map((s) => s.statement);
}

import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * CPU (user + system, ms) used so far by the processes named `name` (`/proc/<pid>/stat`; Linux only, 0
 * elsewhere): each live one's own, plus what its exited children used (PostgreSQL's postmaster collects
 * the time of every backend that has ended, so pgbench's connections still count after it exits).
 */
export function processCpuMs(name: string): number {
  let total = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    if (stat.slice(open + 1, close) !== name) continue;
    const fields = stat.slice(close + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    total += ((utime + stime + cutime + cstime) * 1000) / TICKS_PER_SECOND;
  }
  return total;
}

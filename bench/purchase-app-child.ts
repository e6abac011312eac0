import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { AppCommand, Envelope } from './purchase-protocol.js';

type Cmd<K extends AppCommand['cmd']> = Extract<AppCommand, { cmd: K }>;
type Args<K extends AppCommand['cmd']> = Omit<Cmd<K>, 'cmd'>;

/** The orchestrator's handle on the app process: commands over IPC, each answered once. */
export class AppChild {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: Envelope<unknown>) => {
      const w = this.waiting.get(m.seq);
      if (!w) return;
      this.waiting.delete(m.seq);
      if (m.ok) w.resolve(m.value);
      else w.reject(new Error(`app process: ${m.error}`));
    });
    child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`app process exited with ${code}`));
      this.waiting.clear();
    });
  }

  static start(): AppChild {
    // The app's logs (info, as in production) are written and thrown away; its errors are shown.
    const child = fork(join(__dirname, 'purchase-app.js'), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return new AppChild(child);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  ask<T, K extends AppCommand['cmd'] = AppCommand['cmd']>(cmd: K, args?: Args<K>): Promise<T> {
    const seq = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(seq, { resolve: resolve, reject });
      this.child.send({ ...(args ?? {}), cmd, seq });
    });
  }

  async cpuMs(): Promise<number> {
    const u = await this.ask<NodeJS.CpuUsage>('cpu');
    return (u.user + u.system) / 1000;
  }

  async close(): Promise<void> {
    await this.ask('close').catch(() => undefined);
    await new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
  }
}

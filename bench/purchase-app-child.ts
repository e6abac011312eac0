import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { serviceNodeFlags } from '../test/support/node-flags.js';
import { IpcChild } from './ipc-child.js';
import type { AppCommand } from './purchase-protocol.js';

type Cmd<K extends AppCommand['cmd']> = Extract<AppCommand, { cmd: K }>;
type Args<K extends AppCommand['cmd']> = Omit<Cmd<K>, 'cmd'>;

/** The orchestrator's handle on the app process: typed commands over `IpcChild`, each answered once. */
export class AppChild {
  private readonly ipc: IpcChild<AppCommand>;

  private constructor(private readonly child: ChildProcess) {
    this.ipc = new IpcChild<AppCommand>(child, 'app process');
  }

  static start(): AppChild {
    // The app's logs (info, as in production) are written and thrown away; its errors are shown.
    // Node's flags as `npm run start:prod` gives them, so the app runs as it does in production.
    const child = fork(join(__dirname, 'purchase-app.js'), [], {
      execArgv: serviceNodeFlags(),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return new AppChild(child);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  ask<T, K extends AppCommand['cmd'] = AppCommand['cmd']>(cmd: K, args?: Args<K>): Promise<T> {
    return this.ipc.ask<T>({ ...(args ?? {}), cmd } as AppCommand);
  }

  /**
   * The app process's CPU so far, in ms (every thread: user and kernel, its socket writes the kernel's), and
   * its event loop's busy time (the one thread that runs requests).
   */
  async cpu(): Promise<{ total: number; system: number; elu: EventLoopUtilization }> {
    const u = await this.ask<NodeJS.CpuUsage & { elu: EventLoopUtilization }>('cpu');
    return { total: (u.user + u.system) / 1000, system: u.system / 1000, elu: u.elu };
  }

  async close(): Promise<void> {
    await this.ask('close').catch(() => undefined);
    await new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
  }
}

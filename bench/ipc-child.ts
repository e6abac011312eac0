import type { ChildProcess } from 'node:child_process';

/**
 * A benchmark's handle on a process it forked: each message carries a `seq` and is answered once with
 * `{seq, ok, value | error}`; the process exiting fails what is still waiting.
 */
export class IpcChild<Command extends { cmd: string }> {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(
    private readonly child: ChildProcess,
    private readonly name: string,
  ) {
    child.on('message', (m: { seq: number; ok: boolean; value?: unknown; error?: string }) => {
      const w = this.waiting.get(m.seq);
      this.waiting.delete(m.seq);
      if (m.ok) w?.resolve(m.value);
      else w?.reject(new Error(`${this.name}: ${m.error}`));
    });
    child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`${this.name} exited with ${code}`));
      this.waiting.clear();
    });
  }

  ask<T>(command: Command): Promise<T> {
    const seq = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(seq, { resolve: resolve, reject });
      this.child.send({ ...command, seq });
    });
  }
}

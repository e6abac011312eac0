import type { ChildProcess } from 'node:child_process';

/** What a forked process answers to one command. */
export interface Envelope<T = unknown> {
  seq: number;
  ok: boolean;
  value?: T;
  error?: string;
}

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
    child.on('message', (m: Envelope) => {
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

/**
 * The forked side of `IpcChild`: each command from the parent goes to `handle`, and its result or error
 * goes back under the command's `seq`. After `close` is answered the process exits, so nothing the app left
 * open (an embedded database's server, a pool) can keep it alive.
 */
export function answerParent(
  // `never`: each process's handler takes its own command type, whatever the parent sends it.
  handle: (command: never) => Promise<unknown>,
): void {
  process.on('message', (message: { cmd: string; seq: number }) => {
    const reply = (envelope: Envelope): void =>
      void process.send?.(envelope, () => {
        if (message.cmd === 'close') process.exit(0);
      });
    handle(message as never).then(
      (value) => reply({ seq: message.seq, ok: true, value }),
      (error: unknown) =>
        reply({
          seq: message.seq,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
}

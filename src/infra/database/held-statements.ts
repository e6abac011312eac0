import type { QueryResult } from 'pg';

interface Waiting {
  /** The statement's place in the held list: its result's place in the message's answer. */
  at: number;
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

/** What `HeldStatements.take` hands to the message that carries them. */
export interface HeldBatch {
  /** The statements, in the order they were held, first in the message. */
  texts: string[];
  /** The message was answered: `results` has one entry per statement of it, these first. */
  answered(results: ReadonlyArray<QueryResult<object>>): void;
  /** The message failed, or the transaction ended before it went. */
  failed(error: unknown): void;
}

/**
 * The statements an open transaction holds for its next message (`TransactionRunner.defer`), in order, and
 * whoever waits for the rows of one of them (a held opening's claim, `TransactionRunner.runHeldOpening`).
 * A statement is one or more texts (a kept plan's `PREPARE` before its `EXECUTE`); its rows are its last's.
 */
export class HeldStatements {
  private texts: string[] = [];
  private waiting: Waiting[] = [];

  get size(): number {
    return this.texts.length;
  }

  hold(texts: readonly string[]): void {
    this.texts.push(...texts);
  }

  /** Holds a statement whose rows someone reads: the promise settles once its message is answered. */
  holdAnswering(texts: readonly string[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ at: this.texts.length + texts.length - 1, resolve, reject });
      this.texts.push(...texts);
    });
  }

  /** Everything held, which is held no longer. */
  take(): HeldBatch {
    const texts = this.texts;
    const waiting = this.waiting;
    this.texts = [];
    this.waiting = [];
    return {
      texts,
      answered: (results) => {
        for (const w of waiting) w.resolve(results[w.at].rows);
      },
      failed: (error) => {
        for (const w of waiting) w.reject(error);
      },
    };
  }
}

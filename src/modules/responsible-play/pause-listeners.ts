import { Injectable } from '@nestjs/common';

/**
 * What another feature does when a member's self-pause begins or is lengthened, in the transaction that sets it
 * (its ambient transaction): payments mark the member's open checkouts, so that one paid during the pause is
 * refused and refunded rather than fulfilled. A port, so that responsible play never reaches into payments
 * (which depend on it for `reserveSpend`).
 */
export type PauseListener = (userId: string, pausedUntil: Date) => Promise<void>;

@Injectable()
export class PauseListeners {
  private readonly listeners: PauseListener[] = [];

  listen(listener: PauseListener): void {
    this.listeners.push(listener);
  }

  async paused(userId: string, pausedUntil: Date): Promise<void> {
    for (const listener of this.listeners) await listener(userId, pausedUntil);
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PauseListeners } from '#app/modules/responsible-play/pause-listeners.js';
import { PaymentsRepository } from './payments.repository.js';

/**
 * When a member pauses themselves, their open checkouts are marked in the same transaction: a checkout opened
 * before the pause and paid during it is refused at fulfilment and refunded whole (`pausedWhenPaid`), as one
 * opened during it is refused at once (`reserveSpend`). The mark costs the sale's path nothing: the payment's
 * head, read anyway, carries it.
 */
@Injectable()
export class PausedBuyersListener implements OnModuleInit {
  constructor(
    private readonly pauses: PauseListeners,
    private readonly payments: PaymentsRepository,
  ) {}

  onModuleInit(): void {
    this.pauses.listen((userId, until) => this.payments.markBuyerPaused(userId, until));
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MetricsService } from '#app/modules/health/metrics.service.js';
import { RAFFLE_SALES_AT_ONCE, PaymentOutcomeService } from './payment-outcome.service.js';

/**
 * What an operator watches during a sell-out launch: how many of this instance's raffle sales run and how
 * many wait in the app for their raffle's turn (`RAFFLE_SALES_AT_ONCE` per raffle). The queue has no bound
 * of its own; a growing `raffle_sales_waiting` is the sign that buyers arrive faster than the raffle's row
 * lets them through.
 */
@Injectable()
export class PaymentsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly outcomes: PaymentOutcomeService,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'raffle_sales_running',
      `Raffle sales running on this instance (at most ${RAFFLE_SALES_AT_ONCE} per raffle at a time).`,
      () => this.outcomes.raffleTurns().running,
    );
    this.metrics.gauge(
      'raffle_sales_waiting',
      "Raffle sales waiting on this instance for their raffle's turn.",
      () => this.outcomes.raffleTurns().waiting,
    );
  }
}

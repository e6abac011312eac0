import { Module } from '@nestjs/common';
import { FulfilmentClient } from './fulfilment.client.js';

/** The print-on-demand provider's HTTP adapter (DESIGN §7), configured from `AppConfig`. */
@Module({ providers: [FulfilmentClient], exports: [FulfilmentClient] })
export class FulfilmentModule {}

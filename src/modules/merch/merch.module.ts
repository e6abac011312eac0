import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FulfilmentModule } from '#app/infra/providers/fulfilment/fulfilment.module.js';
import { PaymentsModule } from '#app/modules/payments/payments.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { MerchOrderItem } from './entities/merch-order-item.entity.js';
import { MerchOrder } from './entities/merch-order.entity.js';
import { MerchProduct } from './entities/merch-product.entity.js';
import { MerchJobs } from './jobs/merch.jobs.js';
import { MerchAdminController } from './merch-admin.controller.js';
import { MerchAdminOrdersService } from './merch-admin-orders.service.js';
import { MerchFulfilmentService } from './merch-fulfilment.service.js';
import { MerchItemSeller } from './merch-item-seller.js';
import { MerchOrdersController } from './merch-orders.controller.js';
import { MerchOrdersService } from './merch-orders.service.js';
import { MerchPaymentsHandler } from './merch-payments.handler.js';
import { MerchProductsController } from './merch-products.controller.js';
import { MerchProductsService } from './merch-products.service.js';
import { MerchRepository } from './merch.repository.js';
import { UsersModule } from '#app/modules/users/users.module.js';

/**
 * Merchandise: products, orders paid through the one payment path (`PaymentHooks`, purpose `merch`),
 * fulfilment by the print-on-demand provider (DESIGN §5, §7, §10).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([MerchProduct, MerchOrder, MerchOrderItem]),
    FulfilmentModule,
    PaymentsModule,
    SitesModule,
    UsersModule,
  ],
  controllers: [MerchProductsController, MerchOrdersController, MerchAdminController],
  providers: [
    MerchRepository,
    MerchProductsService,
    MerchOrdersService,
    MerchAdminOrdersService,
    MerchFulfilmentService,
    MerchPaymentsHandler,
    MerchItemSeller,
    MerchJobs,
  ],
})
export class MerchModule {}

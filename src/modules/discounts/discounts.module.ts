import { Module } from '@nestjs/common';
import { RewardsModule } from '#app/modules/rewards/rewards.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { BulkGenerateService } from './bulk-generate.service.js';
import { ClaimsRepository } from './claims.repository.js';
import { ClaimsService } from './claims.service.js';
import { CatalogueController } from './catalogue.controller.js';
import { CatalogueRepository } from './catalogue.repository.js';
import { CatalogueService } from './catalogue.service.js';
import { CodeExportController } from './code-export.controller.js';
import { CodeExportService } from './code-export.service.js';
import { DiscountCodeViews } from './discount-code-views.js';
import { DiscountCodesController } from './discount-codes.controller.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { DiscountCodesService } from './discount-codes.service.js';
import { UniqueCodesRepository } from './unique-codes.repository.js';
import { UsersModule } from '#app/modules/users/users.module.js';

/** The discount catalogue: brands, tags, single and bulk codes (DESIGN §6). Claims with points. */
@Module({
  imports: [SitesModule, RewardsModule, UsersModule],
  controllers: [CatalogueController, DiscountCodesController, CodeExportController],
  providers: [
    CatalogueRepository,
    DiscountCodesRepository,
    UniqueCodesRepository,
    ClaimsRepository,
    ClaimsService,
    DiscountCodeViews,
    CatalogueService,
    DiscountCodesService,
    BulkGenerateService,
    CodeExportService,
  ],
  exports: [DiscountCodesService, BulkGenerateService, CatalogueService],
})
export class DiscountsModule {}

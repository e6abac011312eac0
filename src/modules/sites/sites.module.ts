import { Module } from '@nestjs/common';
import { HostPolicy } from '#app/common/net/host-policy.js';
import { RateLimitSettings } from '#app/common/rate-limit/rate-limit-settings.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CryptoModule } from '#app/infra/crypto/crypto.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { SiteConfig } from './entities/site-config.entity.js';
import { SiteConfigsController } from './site-configs.controller.js';
import { SiteConfigsService } from './site-configs.service.js';
import { SitesRepository } from './sites.repository.js';
import { SitesService } from './sites.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([SiteConfig]), CryptoModule, UsersModule],
  controllers: [SiteConfigsController],
  providers: [
    SitesRepository,
    SitesService,
    SiteConfigsService,
    HostPolicy,
    // The rate limits a site sets itself (DESIGN §9), read from the same cached copy as its other settings.
    { provide: RateLimitSettings, useExisting: SitesService },
  ],
  exports: [SitesService, RateLimitSettings],
})
export class SitesModule {}

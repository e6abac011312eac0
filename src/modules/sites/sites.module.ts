import { Module } from '@nestjs/common';
import { HostPolicy } from '#app/common/net/host-policy.js';
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
  providers: [SitesRepository, SitesService, SiteConfigsService, HostPolicy],
  exports: [SitesService],
})
export class SitesModule {}

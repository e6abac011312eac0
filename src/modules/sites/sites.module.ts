import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SiteConfig } from './entities/site-config.entity.js';
import { SitesRepository } from './sites.repository.js';
import { SitesService } from './sites.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([SiteConfig])],
  providers: [SitesRepository, SitesService],
  exports: [SitesService],
})
export class SitesModule {}

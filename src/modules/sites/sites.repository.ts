import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { SiteConfig } from './entities/site-config.entity.js';

@Injectable()
export class SitesRepository {
  constructor(@InjectRepository(SiteConfig) private readonly sites: Repository<SiteConfig>) {}

  findBySiteId(siteId: string, manager?: EntityManager): Promise<SiteConfig | null> {
    return (manager ? manager.getRepository(SiteConfig) : this.sites).findOne({ where: { site_id: siteId } });
  }

  /** Creates the site unless it exists; safe when several instances start at once. */
  async ensure(site: Pick<SiteConfig, 'site_id' | 'display_name' | 'frontend_url'>): Promise<void> {
    await this.sites
      .createQueryBuilder()
      .insert()
      .values({ ...site, additional_settings: {} })
      .orIgnore()
      .execute();
  }
}

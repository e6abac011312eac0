import { Injectable } from '@nestjs/common';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SiteConfig } from './entities/site-config.entity.js';

export type SiteValues = Partial<Omit<SiteConfig, 'id' | 'created_at' | 'updated_at'>>;

export interface SiteHotFacts {
  settings: Record<string, unknown>;
  /** Whether the site has a contact-list (and marketing) key, and an analytics key. */
  integrations: { contacts: boolean; analytics: boolean };
}

@Injectable()
export class SitesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** SiteConfigs in the ambient transaction when there is one. */
  private get sites(): Repository<SiteConfig> {
    return this.tx.repo(SiteConfig);
  }

  private repo(manager?: EntityManager): Repository<SiteConfig> {
    return manager ? manager.getRepository(SiteConfig) : this.sites;
  }

  findBySiteId(siteId: string, manager?: EntityManager): Promise<SiteConfig | null> {
    return this.repo(manager).findOne({ where: { site_id: siteId } });
  }

  /** Only the site's `additional_settings` (null: no such site), in the ambient transaction if any. */
  /** What hot paths need of a site: its rules, and which outside providers it has keys for. */
  async settingsOf(siteId: string): Promise<SiteHotFacts | null> {
    const rows = await this.tx.manager.query<
      Array<{ additional_settings: Record<string, unknown>; contacts: boolean; analytics: boolean }>
    >(
      `SELECT additional_settings, contactsvc_api_key IS NOT NULL AS contacts,
              analytics_api_key IS NOT NULL AS analytics
         FROM site_configs WHERE site_id = $1`,
      [siteId],
    );
    const row = rows.at(0);
    return row
      ? {
          settings: row.additional_settings,
          integrations: { contacts: row.contacts, analytics: row.analytics },
        }
      : null;
  }

  /** The site's row, locked until the transaction ends (read-modify-write of its settings). */
  lockBySiteId(siteId: string, manager: EntityManager): Promise<SiteConfig | null> {
    return manager
      .getRepository(SiteConfig)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.site_id = :siteId', { siteId })
      .getOne();
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

  /** Inserts a site; false when its `site_id` is taken (also under a concurrent create). */
  async insert(values: SiteValues, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .getRepository(SiteConfig)
      .createQueryBuilder()
      .insert()
      .values({ additional_settings: {}, ...values } as QueryDeepPartialEntity<SiteConfig>)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  async update(siteId: string, changes: SiteValues, manager: EntityManager): Promise<void> {
    if (!Object.keys(changes).length) return;
    await manager
      .getRepository(SiteConfig)
      .update({ site_id: siteId }, changes as QueryDeepPartialEntity<SiteConfig>);
  }

  list(limit: number, cursor?: string): Promise<SiteConfig[]> {
    const qb = this.sites.createQueryBuilder('s').orderBy('s.id', 'ASC').take(limit);
    if (cursor) qb.where('s.id > :cursor', { cursor });
    return qb.getMany();
  }
}

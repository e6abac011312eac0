import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type ObjectLiteral } from 'typeorm';
import { DiscountBrand } from './entities/discount-brand.entity.js';
import { Tag } from './entities/tag.entity.js';

export type NewBrand = Pick<DiscountBrand, 'site_id' | 'name' | 'slug'> & Partial<DiscountBrand>;
export type NewTag = Pick<Tag, 'site_id' | 'name' | 'slug'> & Partial<Tag>;

/** Brands and tags: the catalogue's reference data. */
@Injectable()
export class CatalogueRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** The ambient transaction's manager, or the pool's outside one. */
  private get db(): EntityManager {
    return this.tx.manager;
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.tx.manager;
  }

  /** Inserts unless the slug is taken on the site; answers the new id, or null when it was taken. */
  private async insertUnlessSlugTaken<T extends ObjectLiteral>(
    entity: new () => T,
    row: Partial<T>,
    manager?: EntityManager,
  ): Promise<string | null> {
    const result = await this.m(manager)
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(row)
      .orIgnore()
      .returning('id')
      .execute();
    return (result.raw as Array<{ id: string }>)[0]?.id ?? null;
  }

  /** One statement (ON CONFLICT DO NOTHING), so two concurrent requests cannot both take a slug. */
  async createBrand(brand: NewBrand, manager?: EntityManager): Promise<DiscountBrand | null> {
    const id = await this.insertUnlessSlugTaken(DiscountBrand, brand, manager);
    return id ? this.m(manager).getRepository(DiscountBrand).findOneByOrFail({ id }) : null;
  }

  async createTag(tag: NewTag, manager?: EntityManager): Promise<Tag | null> {
    const id = await this.insertUnlessSlugTaken(Tag, tag, manager);
    return id ? this.m(manager).getRepository(Tag).findOneByOrFail({ id }) : null;
  }

  findBrand(siteId: string, id: string, manager?: EntityManager): Promise<DiscountBrand | null> {
    return this.m(manager).getRepository(DiscountBrand).findOneBy({ site_id: siteId, id });
  }

  findBrandBySlug(siteId: string, slug: string): Promise<DiscountBrand | null> {
    return this.db.getRepository(DiscountBrand).findOneBy({ site_id: siteId, slug });
  }

  findBrandsByIds(ids: string[]): Promise<DiscountBrand[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.getRepository(DiscountBrand).findBy({ id: In(ids) });
  }

  /** A page of a site's published brands (not draft, not archived) by name. */
  listPublishedBrands(siteId: string, limit: number, cursor?: string): Promise<DiscountBrand[]> {
    const qb = this.db
      .getRepository(DiscountBrand)
      .createQueryBuilder('b')
      .where('b.site_id = :siteId AND b.draft = false AND b.archived = false', { siteId })
      .orderBy('b.name', 'ASC')
      .addOrderBy('b.id', 'ASC')
      .take(limit);
    if (cursor)
      qb.andWhere('(b.name, b.id) > (SELECT x.name, x.id FROM discount_brands x WHERE x.id = :cursor)', {
        cursor,
      });
    return qb.getMany();
  }

  findTagsOnSite(siteId: string, ids: string[], manager?: EntityManager): Promise<Tag[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.m(manager)
      .getRepository(Tag)
      .findBy({ site_id: siteId, id: In(ids) });
  }

  findTagBySlug(siteId: string, slug: string): Promise<Tag | null> {
    return this.db.getRepository(Tag).findOneBy({ site_id: siteId, slug });
  }

  /** A page of a site's active tags by name. */
  listActiveTags(siteId: string, limit: number, cursor?: string): Promise<Tag[]> {
    const qb = this.db
      .getRepository(Tag)
      .createQueryBuilder('t')
      .where('t.site_id = :siteId AND t.active = true', { siteId })
      .orderBy('t.name', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .take(limit);
    if (cursor)
      qb.andWhere('(t.name, t.id) > (SELECT x.name, x.id FROM tags x WHERE x.id = :cursor)', { cursor });
    return qb.getMany();
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type ObjectLiteral } from 'typeorm';
import { DiscountBrand } from './entities/discount-brand.entity.js';
import { Tag } from './entities/tag.entity.js';

export type NewBrand = Pick<DiscountBrand, 'site_id' | 'name' | 'slug'> & Partial<DiscountBrand>;
export type NewTag = Pick<Tag, 'site_id' | 'name' | 'slug'> & Partial<Tag>;

/** Brands and tags: the catalogue's reference data. */
@Injectable()
export class CatalogueRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  /** Inserts unless the slug is taken on the site (then null): one statement, safe under concurrency. */
  private async insertUnlessSlugTaken<T extends ObjectLiteral>(
    entity: new () => T,
    row: Partial<T>,
    manager?: EntityManager,
  ): Promise<T | null> {
    const result = await this.m(manager)
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(row)
      .orIgnore()
      .returning('id')
      .execute();
    const id = (result.raw as Array<{ id: string }>)[0]?.id;
    return id
      ? this.m(manager)
          .getRepository(entity)
          .findOneByOrFail({ id } as never)
      : null;
  }

  createBrand(brand: NewBrand, manager?: EntityManager): Promise<DiscountBrand | null> {
    return this.insertUnlessSlugTaken(DiscountBrand, brand, manager);
  }

  createTag(tag: NewTag, manager?: EntityManager): Promise<Tag | null> {
    return this.insertUnlessSlugTaken(Tag, tag, manager);
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

  /** A page of a site's brands by name; `publicOnly` leaves out drafts and archived ones. */
  listBrands(siteId: string, publicOnly: boolean, limit: number, cursor?: string): Promise<DiscountBrand[]> {
    const qb = this.db
      .getRepository(DiscountBrand)
      .createQueryBuilder('b')
      .where('b.site_id = :siteId', { siteId })
      .orderBy('b.name', 'ASC')
      .addOrderBy('b.id', 'ASC')
      .take(limit);
    if (publicOnly) qb.andWhere('b.draft = false AND b.archived = false');
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

  /** A page of a site's tags by name; `activeOnly` leaves out inactive ones. */
  listTags(siteId: string, activeOnly: boolean, limit: number, cursor?: string): Promise<Tag[]> {
    const qb = this.db
      .getRepository(Tag)
      .createQueryBuilder('t')
      .where('t.site_id = :siteId', { siteId })
      .orderBy('t.name', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .take(limit);
    if (activeOnly) qb.andWhere('t.active = true');
    if (cursor)
      qb.andWhere('(t.name, t.id) > (SELECT x.name, x.id FROM tags x WHERE x.id = :cursor)', { cursor });
    return qb.getMany();
  }
}

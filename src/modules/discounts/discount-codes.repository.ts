import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull } from 'typeorm';
import { DiscountCodeTag } from './entities/discount-code-tag.entity.js';
import { DiscountCode } from './entities/discount-code.entity.js';
import { Tag } from './entities/tag.entity.js';

export type NewDiscountCode = Pick<
  DiscountCode,
  'site_id' | 'discount_brand_id' | 'title' | 'points_required'
> &
  Partial<DiscountCode>;

export interface CodeFilters {
  /** Non-admin viewers see active codes only. */
  activeOnly: boolean;
  tagId?: string;
  brandId?: string;
  featured?: boolean;
}

/** Discount codes and their tags. Deleted (soft) codes are invisible to every read here. */
@Injectable()
export class DiscountCodesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** The ambient transaction's manager, or the pool's outside one. */
  private get db(): EntityManager {
    return this.tx.manager;
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.tx.manager;
  }

  /** A new code and its tag links. */
  async insert(code: NewDiscountCode, tagIds: string[], manager: EntityManager): Promise<DiscountCode> {
    const repo = manager.getRepository(DiscountCode);
    const row = await repo.save(repo.create(code));
    await this.setTags(row.id, tagIds, manager);
    return row;
  }

  findLive(id: string, siteId?: string, manager?: EntityManager): Promise<DiscountCode | null> {
    return this.m(manager)
      .getRepository(DiscountCode)
      .findOneBy({ id, deleted_at: IsNull(), ...(siteId ? { site_id: siteId } : {}) });
  }

  /**
   * `findLive`, the row locked until the caller's transaction ends: two edits of one code take turns (each
   * replaces the code's tags by a delete and an insert, which two at once collided on, or merged). `FOR NO KEY
   * UPDATE`, the lock the edit's own UPDATE takes: a claim in flight (which holds the row `FOR KEY SHARE`
   * through its foreign keys) does not hold an edit back, as it did not before.
   */
  lockLive(id: string, siteId: string, manager: EntityManager): Promise<DiscountCode | null> {
    return manager
      .getRepository(DiscountCode)
      .createQueryBuilder('c')
      .where('c.id = :id AND c.site_id = :siteId AND c.deleted_at IS NULL', { id, siteId })
      .setLock('for_no_key_update')
      .getOne();
  }

  async update(id: string, changes: Partial<DiscountCode>, manager: EntityManager): Promise<void> {
    if (Object.keys(changes).length) await manager.getRepository(DiscountCode).update({ id }, changes);
  }

  /**
   * How many generated codes of one shape (prefix and length) the site holds, deleted offers included:
   * their codes stay in the table. A sum over the site's bulk codes, not a scan of their codes.
   */
  async generatedOfShape(
    siteId: string,
    prefix: string,
    codeLength: number,
    manager: EntityManager,
  ): Promise<number> {
    const rows: Array<{ n: string }> = await manager.query(
      `SELECT COALESCE(SUM(generated_count), 0) AS n FROM discount_codes
        WHERE site_id = $1 AND is_bulk_code AND prefix = $2 AND code_length = $3`,
      [siteId, prefix, codeLength],
    );
    return Number(rows[0].n);
  }

  /** Soft delete (the row, its generated codes and claims stay for the records); false when not live. */
  async softDelete(id: string, siteId: string): Promise<boolean> {
    const result = await this.db
      .getRepository(DiscountCode)
      .update({ id, site_id: siteId, deleted_at: IsNull() }, { deleted_at: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /** Replaces the code's tags with `tagIds`. */
  async setTags(codeId: string, tagIds: string[], manager: EntityManager): Promise<void> {
    const links = manager.getRepository(DiscountCodeTag);
    await links.delete({ discount_code_id: codeId });
    if (tagIds.length) await links.insert(tagIds.map((tag_id) => ({ discount_code_id: codeId, tag_id })));
  }

  /** A page of a site's codes, newest first. */
  list(siteId: string, f: CodeFilters, limit: number, cursor?: string): Promise<DiscountCode[]> {
    const qb = this.db
      .getRepository(DiscountCode)
      .createQueryBuilder('c')
      .where('c.site_id = :siteId AND c.deleted_at IS NULL', { siteId })
      .orderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .take(limit);
    if (f.activeOnly) qb.andWhere('c.active = true');
    if (f.featured !== undefined) qb.andWhere('c.featured = :featured', { featured: f.featured });
    if (f.brandId) qb.andWhere('c.discount_brand_id = :brandId', { brandId: f.brandId });
    if (f.tagId)
      qb.andWhere(
        'EXISTS (SELECT 1 FROM discount_code_tags l WHERE l.discount_code_id = c.id AND l.tag_id = :tagId)',
        { tagId: f.tagId },
      );
    if (cursor)
      qb.andWhere(
        '(c.created_at, c.id) < (SELECT x.created_at, x.id FROM discount_codes x WHERE x.id = :cursor)',
        { cursor },
      );
    return qb.getMany();
  }

  /** The live codes of several brands at once (brand listings), newest first. */
  findByBrands(brandIds: string[], activeOnly: boolean): Promise<DiscountCode[]> {
    if (!brandIds.length) return Promise.resolve([]);
    return this.db.getRepository(DiscountCode).find({
      where: {
        discount_brand_id: In(brandIds),
        deleted_at: IsNull(),
        ...(activeOnly ? { active: true } : {}),
      },
      order: { created_at: 'DESC', id: 'DESC' },
    });
  }

  /** The tags of several codes in one query, by code id. */
  async tagsOf(codeIds: string[], manager?: EntityManager): Promise<Map<string, Tag[]>> {
    const byCode = new Map<string, Tag[]>();
    if (!codeIds.length) return byCode;
    const rows: Array<Tag & { code_id: string }> = await this.m(manager).query(
      `SELECT l.discount_code_id AS code_id, t.*
         FROM discount_code_tags l JOIN tags t ON t.id = l.tag_id
        WHERE l.discount_code_id = ANY($1::uuid[])
        ORDER BY t.name, t.id`,
      [codeIds],
    );
    for (const { code_id, ...tag } of rows) byCode.set(code_id, [...(byCode.get(code_id) ?? []), tag]);
    return byCode;
  }
}

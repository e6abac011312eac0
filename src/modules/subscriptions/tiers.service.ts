import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { refuseNulls } from '#app/common/validation/not-null.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { CreateTierDto, TierDto, UpdateTierDto } from './dto/tier.dto.js';
import type { SubscriptionTier } from './entities/subscription-tier.entity.js';
import { toTierDto } from './tiers.mapper.js';
import { isDuplicateName, TiersRepository } from './tiers.repository.js';
import { newTier, normalizeTierName, TIER_REQUIRED_FIELDS, tierChanges } from './tiers.rules.js';

const nameTaken = (): AppException =>
  AppException.conflict('TIER_NAME_TAKEN', 'This site already has a tier with that name.');

@Injectable()
export class TiersService {
  constructor(
    private readonly tiers: TiersRepository,
    private readonly sites: SitesService,
  ) {}

  async create(siteId: string, body: CreateTierDto): Promise<TierDto> {
    await this.sites.requireSite(siteId);
    try {
      return toTierDto(await this.tiers.insert(newTier(siteId, body)));
    } catch (error) {
      if (isDuplicateName(error)) throw nameTaken();
      throw error;
    }
  }

  /** Endpoint 12. Another site's tier is 404 to an admin; a superadmin may edit any site's. */
  async update(caller: AuthUser, siteId: string, id: string, body: UpdateTierDto): Promise<TierDto> {
    refuseNulls(body, TIER_REQUIRED_FIELDS);
    const tier = await this.tiers.findById(id);
    if (!tier || (tier.site_id !== siteId && caller.role !== 'superadmin'))
      throw AppException.notFound('Tier');
    try {
      await this.tiers.update(id, tierChanges(body));
    } catch (error) {
      if (isDuplicateName(error)) throw nameTaken();
      throw error;
    }
    return toTierDto((await this.tiers.findById(id)) ?? tier);
  }

  async list(
    siteId: string | undefined,
    activeOnly: boolean,
    limit: number,
    cursor?: string,
  ): Promise<TierDto[]> {
    if (!siteId) throw AppException.validation([{ field: 'site_id', message: 'site_id is required' }]);
    return (await this.tiers.list(siteId, activeOnly, limit, cursor)).map(toTierDto);
  }

  /**
   * For subscriptions: a tier of `siteId` named by its id or its name (case-insensitive), or null.
   * Inactive tiers are returned too; the caller decides whether one may be used.
   */
  async findForSite(siteId: string, ref: string, manager?: EntityManager): Promise<SubscriptionTier | null> {
    if (isUUID(ref)) {
      const byId = await this.tiers.findById(ref.toLowerCase(), manager);
      if (byId?.site_id === siteId) return byId;
    }
    return this.tiers.findByName(siteId, normalizeTierName(ref), manager);
  }
}

import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import { ExpiringCopies } from '#app/common/expiring-copies.js';
import type { QuoteDto, RaffleDto } from './dto/raffle.dto.js';
import type { Raffle } from './entities/raffle.entity.js';
import { type ChosenUpsell, type OrderPrice, priceOrder, PricingError } from './pricing.rules.js';
import { type RaffleAudience, RaffleRelationsPort } from './ports/raffle-relations.port.js';
import { toQuoteDto, toRaffleDto } from './raffles.mapper.js';
import { type RaffleEntryRules, RafflesRepository } from './raffles.repository.js';
import { orderFitRefusal, type Refusal } from './raffles.rules.js';

/** A refusal from the rules as the client sees it. */
export function refusal(r: NonNullable<Refusal>): AppException {
  return new AppException(
    r.status === 409 ? HttpStatus.CONFLICT : HttpStatus.UNPROCESSABLE_ENTITY,
    r.code,
    r.message,
  );
}

/**
 * How long an instance plans paid orders from its copy of a raffle's entry rules (`entryRules`). Only the
 * points a sale earns can follow a stale copy, and only on instances that did not make the change.
 */
export const ENTRY_RULES_TTL_MS = 5_000;

/**
 * Reading raffles and pricing orders. Public reads never show drafts (404). Payments and entries use
 * `findByItemId`, `priceOrder` and `checkOrderFits`, so every way in prices and limits alike.
 */
@Injectable()
export class RafflesService {
  private readonly entryRulesCopies = new ExpiringCopies<RaffleEntryRules | null>(ENTRY_RULES_TTL_MS);

  constructor(
    private readonly raffles: RafflesRepository,
    private readonly relations: RaffleRelationsPort,
  ) {}

  /** Raffles as responses, with their entries and winners loaded in one query per kind. */
  async present(rows: Raffle[], audience: RaffleAudience): Promise<RaffleDto[]> {
    const now = new Date();
    const loaded = await this.relations.load(
      rows.map((r) => r.id),
      audience,
    );
    return rows.map((r) =>
      toRaffleDto(r, now, {
        entries: loaded.entries.get(r.id) ?? [],
        winners: loaded.winners.get(r.id) ?? [],
        instantWon: loaded.instantWon.get(r.id) ?? new Map<string, number>(),
      }),
    );
  }

  async presentOne(row: Raffle, audience: RaffleAudience): Promise<RaffleDto> {
    const [dto] = await this.present([row], audience);
    return dto;
  }

  async listPublic(siteId: string | undefined, limit: number, cursor?: string): Promise<RaffleDto[]> {
    if (!siteId) throw AppException.validation([{ field: 'site_id', message: 'site_id is required' }]);
    return this.present(await this.raffles.listPublic(siteId, limit, cursor), 'public');
  }

  /** A published raffle; when a site is named, only that site's. */
  async getPublic(id: string, siteId: string | undefined): Promise<RaffleDto> {
    return this.presentOne(await this.requirePublished(id, siteId), 'public');
  }

  /**
   * Endpoint 17. With a site (query or header), that site's raffle; without one, the only published
   * raffle with this item_id, or 409 AMBIGUOUS_ITEM when several sites use it.
   */
  async getByItem(itemId: string, siteId: string | undefined): Promise<RaffleDto> {
    const found = await this.raffles.findPublishedByItem(itemId, siteId, 2);
    if (!found.length) throw AppException.notFound('Raffle');
    if (found.length > 1)
      throw AppException.conflict(
        'AMBIGUOUS_ITEM',
        'Several sites have a raffle with this item_id: name the site with site_id or X-Site-Id.',
      );
    return this.presentOne(found[0], 'public');
  }

  /** `GET /raffles/{id}/quote`: the server's price for `quantity` tickets plus the chosen bundles. */
  async quote(
    id: string,
    siteId: string | undefined,
    quantity: number,
    bundles: number[],
  ): Promise<QuoteDto> {
    const raffle = await this.requirePublished(id, siteId);
    const price = this.priceOrder(
      raffle,
      quantity,
      bundles.map((size) => ({ quantity: size })),
    );
    this.checkOrderFits(raffle, price.tickets);
    return toQuoteDto(price);
  }

  /** The server's price of an order (DESIGN §6); 400 for a malformed choice, 422 for a bundle not offered. */
  priceOrder(raffle: Raffle, quantity: number, upsells: readonly ChosenUpsell[] = []): OrderPrice {
    try {
      return priceOrder(raffle, quantity, upsells);
    } catch (error) {
      if (!(error instanceof PricingError)) throw error;
      if (error.status === 400)
        throw AppException.validation([{ field: error.field, message: error.message }]);
      throw AppException.unprocessable(error.code, error.message);
    }
  }

  /** 422 when one order of `tickets` cannot be entered: more than are left, or than one user may hold. */
  checkOrderFits(raffle: Raffle, tickets: number): void {
    const refused = orderFitRefusal(raffle, tickets);
    if (refused) throw refusal(refused);
  }

  /** The published raffle a checkout names by item_id on a site, or null (drafts are never sold). */
  async findByItemId(siteId: string, itemId: string, manager?: EntityManager): Promise<Raffle | null> {
    const found = await this.raffles.findPublishedByItem(itemId, siteId, 1, manager);
    return found.length ? found[0] : null;
  }

  findById(id: string, manager?: EntityManager): Promise<Raffle | null> {
    return this.raffles.findById(id, manager);
  }

  findManyByIds(ids: string[]): Promise<Raffle[]> {
    return this.raffles.findManyByIds(ids);
  }

  /**
   * What entering the raffle needs of it (caps, state, counter, points multiplier), read narrow; null if
   * none. A paid order's plan: from this instance's copy while it is under ENTRY_RULES_TTL_MS old, so a
   * popular raffle's row is not read once per sale; `fresh` reads it. A copy can only be behind, and what
   * it lets through is checked again by the counter's own statement, which reads the row it locks (state,
   * tickets left, the per-user cap): so a plan made from a copy may pass an order the counter then refuses
   * (refunded whole, as any race), and a plan that refuses must be made again from the row (the caller's
   * part). The points a sale earns follow the copy.
   */
  entryRules(id: string, fresh = false): Promise<RaffleEntryRules | null> {
    if (fresh) this.entryRulesCopies.forget(id);
    return this.entryRulesCopies.get(
      id,
      () => this.raffles.entryRules(id),
      (rules) => rules !== null,
    );
  }

  /** The raffle changed (its points, its caps), or sold out: plans read its rules from the row again. */
  forgetEntryRules(id: string): void {
    this.entryRulesCopies.forget(id);
  }

  private async requirePublished(id: string, siteId: string | undefined): Promise<Raffle> {
    const raffle = await this.raffles.findPublishedById(id);
    if (!raffle || (siteId && raffle.site_id !== siteId)) throw AppException.notFound('Raffle');
    return raffle;
  }
}

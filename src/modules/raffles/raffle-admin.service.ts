import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { refuseNulls } from '#app/common/validation/not-null.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { CreateRaffleDto, UpdateRaffleDto } from './dto/raffle-input.dto.js';
import type { RaffleDto } from './dto/raffle.dto.js';
import type { Raffle } from './entities/raffle.entity.js';
import { InstantWinsService } from './draws/instant-wins.service.js';
import { TicketListService } from './draws/ticket-list.service.js';
import { PricingError } from './pricing.rules.js';
import { newRaffle, raffleChanges } from './raffle-input.rules.js';
import { isDuplicateItem, RafflesRepository } from './raffles.repository.js';
import {
  closeRefusal,
  newDrawSeed,
  publishRefusal,
  RAFFLE_REQUIRED_FIELDS,
  raffleShapeErrors,
  type RaffleShape,
  updateRefusal,
} from './raffles.rules.js';
import { RafflesService, refusal } from './raffles.service.js';

const itemTaken = (): AppException =>
  AppException.conflict('ITEM_ID_TAKEN', 'This site already has a raffle with that item_id.');

/** Shape and input errors as a 400 listing every field; PricingError comes from malformed upsells. */
function validated<T>(build: () => T, shape: (value: T) => RaffleShape): T {
  let value: T;
  try {
    value = build();
  } catch (error) {
    if (error instanceof PricingError)
      throw AppException.validation([{ field: error.field, message: error.message }]);
    throw error;
  }
  const errors = raffleShapeErrors(shape(value));
  if (errors.length) throw AppException.validation(errors);
  return value;
}

/** Administrators' operations on raffles: draft, edit, publish (commit the draw seed), close, list. */
@Injectable()
export class RaffleAdminService {
  constructor(
    private readonly raffles: RafflesRepository,
    private readonly reader: RafflesService,
    private readonly sites: SitesService,
    private readonly tx: TransactionRunner,
    private readonly tickets: TicketListService,
    private readonly instantWins: InstantWinsService,
  ) {}

  async create(actor: AuthUser, siteId: string, body: CreateRaffleDto): Promise<RaffleDto> {
    await this.sites.requireSite(siteId);
    const id = randomUUID();
    const row = validated(
      () => newRaffle(id, siteId, actor.id, body),
      (r) => r,
    );
    try {
      await this.raffles.insert(row);
    } catch (error) {
      if (isDuplicateItem(error)) throw itemTaken();
      throw error;
    }
    return this.reader.presentOne(await this.require(actor, siteId, id), 'admin');
  }

  /** Only the fields sent change; the row is locked so tickets cannot be sold past a lowered total. */
  async update(actor: AuthUser, siteId: string, id: string, body: UpdateRaffleDto): Promise<RaffleDto> {
    refuseNulls(body, RAFFLE_REQUIRED_FIELDS);
    const row = await this.tx.run(async (manager) => {
      const current = await this.raffles.lockById(id, manager);
      if (!current || !this.mayManage(actor, siteId, current)) throw AppException.notFound('Raffle');
      if (body.instant_wins !== undefined && !current.draft)
        throw AppException.conflict(
          'INSTANT_WINS_FIXED',
          'Instant wins are fixed at publication: they can be changed only while a draft.',
        );
      if (body.active !== undefined && current.draft)
        throw AppException.conflict('NOT_PUBLISHED', 'A draft is switched on by publishing it.');
      const changes = validated(
        () => raffleChanges(current, body),
        (c) => ({ ...current, ...c }),
      );
      const refused = updateRefusal(current, changes, new Date());
      if (refused) throw refusal(refused);
      // A lower cap than an entrant already holds would be passed the moment it is set (DESIGN §6). Read under
      // the raffle's lock: entries take it for their last statement.
      if (
        typeof changes.max_entries === 'number' &&
        changes.max_entries !== current.max_entries &&
        !current.draft
      ) {
        const held = await this.raffles.mostHeld(id, manager);
        if (held > changes.max_entries)
          throw AppException.unprocessable(
            'MAX_BELOW_HELD',
            `An entrant already holds ${held} tickets; max_entries cannot go below that.`,
          );
      }
      const total = changes.total_entries_available ?? current.total_entries_available;
      if (total < current.current_entries)
        throw AppException.unprocessable(
          'TOTAL_BELOW_SOLD',
          `${current.current_entries} tickets are already taken; the total cannot go below that.`,
        );
      // The instant-win tickets were drawn over 1..instant_win_total at publication: below it, some prizes
      // could never be won. Refusing below the whole range tells nothing of where the tickets lie.
      if (current.instant_win_total !== null && total < current.instant_win_total)
        throw AppException.unprocessable(
          'TOTAL_BELOW_INSTANT_WINS',
          `Instant-win tickets were fixed among tickets 1–${current.instant_win_total}; the total cannot go below that.`,
        );
      try {
        await this.raffles.update(id, changes, manager);
      } catch (error) {
        if (isDuplicateItem(error)) throw itemTaken();
        throw error;
      }
      return this.raffles.findById(id, manager);
    });
    if (!row) throw AppException.notFound('Raffle');
    this.reader.forgetEntryRules(id);
    return this.reader.presentOne(row, 'admin');
  }

  /** draft → published: switched on, `published_on` set, a secret seed drawn and its sha256 made public. */
  async publish(actor: AuthUser, siteId: string, id: string): Promise<RaffleDto> {
    const { seed, hash } = newDrawSeed();
    await this.tx.run(async (manager) => {
      // Checked and drawn from the row locked here: an edit racing the publish (a new total, other
      // prizes) comes wholly before it or after it, never between the checks and the tickets drawn.
      const raffle = await this.raffles.lockById(id, manager);
      if (!raffle || !this.mayManage(actor, siteId, raffle)) throw AppException.notFound('Raffle');
      const refused = publishRefusal(raffle, new Date());
      if (refused) throw refusal(refused);
      if (!(await this.raffles.publish(id, seed, hash, new Date())))
        throw AppException.conflict('NOT_DRAFT', 'Only a draft can be published.');
      // Instant-win tickets are fixed now, from the seed just committed (DESIGN §6).
      await this.instantWins.fix(raffle, seed);
    });
    return this.reader.presentOne(await this.require(actor, siteId, id), 'admin');
  }

  /** published → closed: no more entries; the ticket list and its hash are published; the draw can follow. */
  async close(actor: AuthUser, siteId: string, id: string): Promise<RaffleDto> {
    const raffle = await this.require(actor, siteId, id);
    const refused = closeRefusal(raffle);
    if (refused) throw refusal(refused);
    if (!(await this.raffles.close(id, new Date())))
      throw AppException.conflict('ALREADY_CLOSED', 'The raffle is already closed.');
    // After the close commits no entry can take a ticket, so the list is final (DESIGN §6 step 2).
    await this.tickets.publish(id);
    return this.reader.presentOne(await this.require(actor, siteId, id), 'admin');
  }

  async list(siteId: string, limit: number, cursor?: string): Promise<RaffleDto[]> {
    return this.reader.present(await this.raffles.listForAdmin(siteId, limit, cursor), 'admin');
  }

  /** An admin manages its own site's raffles; a superadmin any site's. Others' answer 404. */
  private mayManage(actor: AuthUser, siteId: string, raffle: Raffle): boolean {
    return raffle.site_id === siteId || actor.role === 'superadmin';
  }

  private async require(actor: AuthUser, siteId: string, id: string): Promise<Raffle> {
    const raffle = await this.raffles.findById(id);
    if (!raffle || !this.mayManage(actor, siteId, raffle)) throw AppException.notFound('Raffle');
    return raffle;
  }
}

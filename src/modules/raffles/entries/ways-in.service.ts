import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { QueryFailedError } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { UserRecordsPort } from '#app/modules/users/ports/user-records.port.js';
import { UsersService } from '#app/modules/users/users.service.js';
import type { Raffle } from '../entities/raffle.entity.js';
import { RaffleRelationsPort } from '../ports/raffle-relations.port.js';
import { RafflesService } from '../raffles.service.js';
import type { CreateEntryDto, CreatePostalEntryDto, RaffleEntryDto } from './dto/entries.dto.js';
import type { RaffleEntry } from './entities/raffle-entry.entity.js';
import { EntriesService } from './entries.service.js';
import { EntriesRepository } from './entries.repository.js';
import { toEntryDto, toEntryRecordDto, toNestedEntryDto } from './entries.mapper.js';
import { type EntryRefusal, pointsCost, refusalDetail, refusalStatus } from './entries.rules.js';
import { entryMailVariables } from './entry-mail.js';

const UNIQUE_VIOLATION = '23505';

/** How many of a raffle's entries it nests (the newest); the full list is the admin's. */
export const NESTED_ENTRIES = 50;

/**
 * The ways into a raffle that are not a payment: points, the free (no-purchase) route and admin-added
 * postal entries; subscription credits arrive with subscriptions. Also the readers that nest entries
 * in raffles and users.
 */
@Injectable()
export class WaysInService implements OnModuleInit {
  constructor(
    private readonly entries: EntriesService,
    private readonly repo: EntriesRepository,
    private readonly raffles: RafflesService,
    private readonly points: PointsService,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly activity: ActivityLogService,
    private readonly mail: MailService,
    private readonly relations: RaffleRelationsPort,
    private readonly userRecords: UserRecordsPort,
    private readonly tx: TransactionRunner,
  ) {}

  onModuleInit(): void {
    this.relations.provide('entries', async (raffleIds, audience) => {
      const byRaffle = new Map<string, ReturnType<typeof toNestedEntryDto>[]>();
      for (const e of await this.repo.latestOfRaffles(raffleIds, NESTED_ENTRIES)) {
        byRaffle.set(e.raffle_id, [...(byRaffle.get(e.raffle_id) ?? []), toNestedEntryDto(e, audience)]);
      }
      return byRaffle;
    });
    this.userRecords.provide('raffle_entries', async (userIds) => {
      const rows = await this.repo.ofUsers(userIds);
      const raffles = await this.presentRaffles(rows);
      const byUser = new Map<string, ReturnType<typeof toEntryRecordDto>[]>();
      for (const e of rows) {
        byUser.set(e.user_id, [
          ...(byUser.get(e.user_id) ?? []),
          toEntryRecordDto(e, raffles.get(e.raffle_id) ?? null),
        ]);
      }
      return byUser;
    });
  }

  async enterByUser(
    user: AuthUser,
    raffleId: string,
    body: CreateEntryDto,
    meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    const raffle = await this.requireRaffleOf(raffleId, user.siteId);
    if (body.method === 'credits')
      throw AppException.unprocessable(
        'CREDITS_UNAVAILABLE',
        'You have no subscription entry credits to use.',
      );
    if (body.method === 'free') return this.enterFree(user, raffle, body.quantity, meta);
    if (raffle.points_required <= 0)
      throw AppException.unprocessable('POINTS_NOT_ACCEPTED', 'This raffle cannot be entered with points.');
    const cost = pointsCost(raffle.points_required, body.quantity);
    const entry = await this.tx.run(async (manager) => {
      // The user's own balance row first, the raffle's contended counter last.
      await this.points.spend(manager, {
        userId: user.id,
        siteId: raffle.site_id,
        amount: cost,
        reason: `Entry to ${raffle.name}`,
        meta,
        details: { raffle_id: raffle.id, quantity: body.quantity },
      });
      const result = await this.entries.enter(manager, {
        raffleId: raffle.id,
        userId: user.id,
        siteId: raffle.site_id,
        quantity: body.quantity,
        method: 'points',
        pointsSpent: cost,
        meta,
      });
      if (!result.ok) throw refused(result.refusal, raffle);
      await this.afterEntry(result.entry, raffle, user.email, meta, manager);
      return result.entry;
    });
    return this.present(entry, user.id);
  }

  async enterPostal(
    admin: AuthUser,
    raffleId: string,
    body: CreatePostalEntryDto,
    meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    const raffle = await this.raffles.findById(raffleId);
    if (!raffle || raffle.draft || (admin.role !== 'superadmin' && raffle.site_id !== admin.siteId))
      throw AppException.notFound('Raffle');
    // A malformed id would reach the database as a bad uuid (500): it names no user.
    const entrant = isUUID(body.user_id) ? await this.accounts.findById(body.user_id) : null;
    if (!entrant || entrant.site_id !== raffle.site_id) throw AppException.notFound('User');
    const entry = await this.tx.run(async (manager) => {
      const result = await this.entries.enter(manager, {
        raffleId: raffle.id,
        userId: entrant.id,
        siteId: raffle.site_id,
        quantity: body.quantity,
        method: 'postal',
        createdBy: admin.id,
        note: body.note ?? null,
        meta,
      });
      if (!result.ok) throw refused(result.refusal, raffle);
      await this.afterEntry(result.entry, raffle, entrant.email, meta, manager);
      return result.entry;
    });
    return this.present(entry, entrant.id);
  }

  async myEntries(userId: string, limit: number, cursor?: string): Promise<RaffleEntryDto[]> {
    const rows = await this.repo.page(userId, limit, cursor);
    const raffles = await this.presentRaffles(rows);
    return rows.map((e) => toEntryDto(e, raffles.get(e.raffle_id) ?? null, null));
  }

  private async enterFree(
    user: AuthUser,
    raffle: Raffle,
    quantity: number,
    meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    if (!raffle.allow_free_entries)
      throw AppException.unprocessable('FREE_ENTRY_NOT_OFFERED', 'This raffle has no free entry route.');
    if (quantity !== 1)
      throw AppException.validation([{ field: 'quantity', message: 'the free route gives one ticket' }]);
    try {
      const entry = await this.tx.run(async (manager) => {
        if (await this.repo.hasFreeEntry(manager, raffle.id, user.id)) throw alreadyFree();
        const result = await this.entries.enter(manager, {
          raffleId: raffle.id,
          userId: user.id,
          siteId: raffle.site_id,
          quantity: 1,
          method: 'free',
          meta,
        });
        if (!result.ok) throw refused(result.refusal, raffle);
        await this.afterEntry(result.entry, raffle, user.email, meta, manager);
        return result.entry;
      });
      return await this.present(entry, user.id);
    } catch (error) {
      // Two parallel free entries: the unique index lets one through.
      if (
        error instanceof QueryFailedError &&
        (error.driverError as { code?: string }).code === UNIQUE_VIOLATION
      )
        throw alreadyFree();
      throw error;
    }
  }

  private async afterEntry(
    entry: RaffleEntry,
    raffle: Raffle,
    email: string,
    meta: RequestMeta,
    manager: Parameters<Parameters<TransactionRunner['run']>[0]>[0],
  ): Promise<void> {
    await this.activity.record(
      {
        userId: entry.user_id,
        siteId: entry.site_id,
        type: 'raffle_entry',
        description: `Entered ${raffle.name} (${entry.method}, ${entry.entries_count} ticket(s))`,
        resourceType: 'raffle_entry',
        resourceId: entry.id,
        metadata: {
          raffle_id: raffle.id,
          method: entry.method,
          ticket_from: entry.ticket_from,
          ticket_to: entry.ticket_to,
        },
      },
      meta,
      manager,
    );
    await this.mail.send(
      {
        kind: 'raffle_entry',
        siteId: entry.site_id,
        to: email,
        userId: entry.user_id,
        variables: entryMailVariables(raffle, entry),
      },
      manager,
    );
  }

  private async requireRaffleOf(raffleId: string, siteId: string): Promise<Raffle> {
    const raffle = await this.raffles.findById(raffleId);
    if (!raffle || raffle.draft || raffle.site_id !== siteId) throw AppException.notFound('Raffle');
    return raffle;
  }

  private async present(entry: RaffleEntry, userId: string): Promise<RaffleEntryDto> {
    const raffles = await this.presentRaffles([entry]);
    return toEntryDto(entry, raffles.get(entry.raffle_id) ?? null, await this.users.getUser(userId));
  }

  private async presentRaffles(
    entries: RaffleEntry[],
  ): Promise<Map<string, Awaited<ReturnType<RafflesService['presentOne']>>>> {
    const ids = [...new Set(entries.map((e) => e.raffle_id))];
    const rows = await this.raffles.findManyByIds(ids);
    const dtos = await this.raffles.present(rows, 'public');
    return new Map(dtos.map((d) => [d.id, d]));
  }
}

/** A refusal with its status and words; one that has not started says when it opens. */
function refused(refusal: EntryRefusal, raffle: Raffle): AppException {
  return new AppException(refusalStatus(refusal), refusal, refusalDetail(refusal, raffle));
}

function alreadyFree(): AppException {
  return new AppException(
    HttpStatus.CONFLICT,
    'ALREADY_ENTERED_FREE',
    'You have already taken the free entry into this raffle.',
  );
}

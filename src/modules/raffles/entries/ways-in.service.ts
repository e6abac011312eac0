import { randomUUID } from 'node:crypto';
import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { QueryFailedError } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { UserRecordsPort } from '#app/modules/users/ports/user-records.port.js';
import { UsersService } from '#app/modules/users/users.service.js';
import type { Raffle } from '../entities/raffle.entity.js';
import { EntryCredits } from '../ports/entry-credits.port.js';
import { RaffleRelationsPort } from '../ports/raffle-relations.port.js';
import { RafflesService } from '../raffles.service.js';
import type { CreateEntryDto, CreatePostalEntryDto, RaffleEntryDto } from './dto/entries.dto.js';
import type { EntryMethod, RaffleEntry } from './entities/raffle-entry.entity.js';
import { entryRefused, EntriesService } from './entries.service.js';
import { EntriesRepository } from './entries.repository.js';
import { toEntryDto, toEntryRecordDto, toNestedEntryDto } from './entries.mapper.js';
import { pointsCost } from './entries.rules.js';

const UNIQUE_VIOLATION = '23505';

/** How many of a raffle's entries it nests (the newest); the full list is the admin's. */
export const NESTED_ENTRIES = 50;

/**
 * The ways into a raffle that are not a payment: points, the free (no-purchase) route and admin-added
 * postal entries, and entry credits from whichever feature holds them (`EntryCredits`). Also the readers that nest entries
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
    private readonly jobs: JobQueue,
    private readonly relations: RaffleRelationsPort,
    private readonly userRecords: UserRecordsPort,
    private readonly tx: TransactionRunner,
    private readonly credits: EntryCredits,
  ) {}

  onModuleInit(): void {
    this.relations.provide('entries', async (raffleIds, audience) => {
      const byRaffle = new Map<string, ReturnType<typeof toNestedEntryDto>[]>();
      // Appended in place, not copied per entry (every raffle list on the hot path builds this).
      for (const e of await this.repo.latestOfRaffles(raffleIds, NESTED_ENTRIES)) {
        const list = byRaffle.get(e.raffle_id);
        if (list) list.push(toNestedEntryDto(e, audience));
        else byRaffle.set(e.raffle_id, [toNestedEntryDto(e, audience)]);
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
    if (body.method === 'credits') return this.enterWithCredits(user, raffle, body.quantity, meta);
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
      return this.enterLast(raffle, user.id, user.email, body.quantity, 'points', meta, {
        pointsSpent: cost,
        pointsPrice: raffle.points_required,
      });
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
    const entry = await this.tx.run(() =>
      this.enterLast(raffle, entrant.id, entrant.email, body.quantity, 'postal', meta, {
        createdBy: admin.id,
        note: body.note ?? null,
      }),
    );
    // The entrant's User record is not the admin's to read whole (their sessions, addresses, other sites'
    // activity, a staff account's above all): the answer leaves `user` unexpanded, as the member's list does.
    return this.present(entry, null);
  }

  async myEntries(userId: string, limit: number, cursor?: string): Promise<RaffleEntryDto[]> {
    const rows = await this.repo.page(userId, limit, cursor);
    const raffles = await this.presentRaffles(rows);
    return rows.map((e) => toEntryDto(e, raffles.get(e.raffle_id) ?? null, null));
  }

  /** Entry credits (a membership's, bonus ones) taken first, the raffle's counter last; none counts as a purchase. */
  private async enterWithCredits(
    user: AuthUser,
    raffle: Raffle,
    quantity: number,
    meta: RequestMeta,
  ): Promise<RaffleEntryDto> {
    const entry = await this.tx.run(async () => {
      const from = await this.credits.take({ userId: user.id, siteId: raffle.site_id, quantity });
      if (!from)
        throw AppException.unprocessable(
          'CREDITS_UNAVAILABLE',
          `You do not have ${quantity} entry credit${quantity === 1 ? '' : 's'} to use.`,
        );
      return this.enterLast(raffle, user.id, user.email, quantity, 'credits', meta);
    });
    return this.present(entry, user.id);
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
        return this.enterLast(raffle, user.id, user.email, 1, 'free', meta);
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

  /**
   * Everything an entry records (its activity row, its e-mail job, under the entry's id fixed in advance),
   * then the tickets: the raffle's contended counter is the transaction's last statement. A refusal is
   * thrown, which rolls the whole transaction back.
   */
  private async enterLast(
    raffle: Raffle,
    userId: string,
    email: string,
    quantity: number,
    method: EntryMethod,
    meta: RequestMeta,
    extra: { pointsSpent?: number; pointsPrice?: number; createdBy?: string; note?: string | null } = {},
  ): Promise<RaffleEntry> {
    const entryId = randomUUID();
    this.activity.recordLater(
      {
        userId,
        siteId: raffle.site_id,
        type: 'raffle_entry',
        description: `Entered ${raffle.name} (${method}, ${quantity} ticket(s))`,
        resourceType: 'raffle_entry',
        resourceId: entryId,
        metadata: { raffle_id: raffle.id, method, quantity },
      },
      meta,
    );
    await this.jobs.enqueue('entries.notify', { raffle_entry_id: entryId, to: email }, { defer: true });
    const result = await this.entries.enter({
      raffle,
      userId,
      siteId: raffle.site_id,
      quantity,
      method,
      entryId,
      meta,
      ...extra,
    });
    if (!result.ok) throw entryRefused(result.refusal, raffle);
    return result.entry;
  }

  private async requireRaffleOf(raffleId: string, siteId: string): Promise<Raffle> {
    const raffle = await this.raffles.findById(raffleId);
    if (!raffle || raffle.draft || raffle.site_id !== siteId) throw AppException.notFound('Raffle');
    return raffle;
  }

  private async present(entry: RaffleEntry, userId: string | null): Promise<RaffleEntryDto> {
    const raffles = await this.presentRaffles([entry]);
    const user = userId ? await this.users.getUser(userId) : null;
    return toEntryDto(entry, raffles.get(entry.raffle_id) ?? null, user);
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

function alreadyFree(): AppException {
  return new AppException(
    HttpStatus.CONFLICT,
    'ALREADY_ENTERED_FREE',
    'You have already taken the free entry into this raffle.',
  );
}

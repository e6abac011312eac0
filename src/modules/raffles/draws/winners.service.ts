import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RaffleWinnerNestedDto } from '#app/modules/raffles/dto/raffle.dto.js';
import { RaffleRelationsPort } from '../ports/raffle-relations.port.js';
import { DrawsRepository } from './draws.repository.js';
import { toProofDto, toPublicWinnerDto, toWinnerDto } from './draws.mapper.js';
import type { DrawProofDto, PublicWinnerDto } from './dto/draws.dto.js';
import { TicketListService } from './ticket-list.service.js';

/** Public reads of a draw (proof, ticket list, winners) and a winner's claim of the prize. */
@Injectable()
export class WinnersService implements OnModuleInit {
  constructor(
    private readonly draws: DrawsRepository,
    private readonly tickets: TicketListService,
    private readonly relations: RaffleRelationsPort,
  ) {}

  onModuleInit(): void {
    // The nested `winners` of a raffle: full rows for admins; the public list is `GET /raffles/{id}/winners`.
    this.relations.provide('winners', async (raffleIds, audience) => {
      const byRaffle = new Map<string, RaffleWinnerNestedDto[]>();
      if (audience !== 'admin') return byRaffle;
      for (const w of await this.draws.winnersOfRaffles(raffleIds))
        byRaffle.set(w.raffle_id, [...(byRaffle.get(w.raffle_id) ?? []), toWinnerDto(w)]);
      return byRaffle;
    });
    this.relations.provide('instantWon', (raffleIds) => this.draws.instantWonCounts(raffleIds));
  }

  async proof(raffleId: string, siteId: string | undefined): Promise<DrawProofDto> {
    const state = await this.stateOf(raffleId, siteId);
    if (!state) throw AppException.notFound('Raffle');
    if (!state.is_drawn) return toProofDto(state, [], []);
    return toProofDto(state, await this.draws.winnersOf(raffleId), await this.draws.instantTickets(raffleId));
  }

  /** The ticket list, once published at the close (404 before: nothing is committed yet). */
  async ticketList(raffleId: string, siteId: string | undefined): Promise<AsyncGenerator<string>> {
    const state = await this.stateOf(raffleId, siteId);
    if (!state?.ticket_list_hash) throw AppException.notFound('Ticket list');
    return this.tickets.chunks(raffleId);
  }

  async list(
    raffleId: string,
    siteId: string | undefined,
    limit: number,
    cursor?: string,
  ): Promise<PublicWinnerDto[]> {
    if (!(await this.stateOf(raffleId, siteId))) throw AppException.notFound('Raffle');
    return (await this.draws.winnersPage(raffleId, limit, cursor)).map(toPublicWinnerDto);
  }

  /** The raffle's draw state; none when a site is named and the raffle is another's (as `GET /raffles/{id}`). */
  private async stateOf(raffleId: string, siteId: string | undefined) {
    const state = await this.draws.drawState(raffleId);
    return state && (!siteId || state.site_id === siteId) ? state : null;
  }

  /** The winner claims the prize once; another user's prize answers 404, a second claim 409. */
  async claim(user: AuthUser, raffleId: string, winnerId: string): Promise<RaffleWinnerNestedDto> {
    const winner = await this.draws.findWinner(raffleId, winnerId);
    if (!winner || winner.user_id !== user.id) throw AppException.notFound('Winner');
    if (!(await this.draws.claim(winnerId, new Date())))
      throw AppException.conflict('PRIZE_ALREADY_CLAIMED', 'This prize has already been claimed.');
    const claimed = await this.draws.findWinner(raffleId, winnerId);
    return toWinnerDto(claimed ?? winner);
  }

  async unclaimed(siteId: string, limit: number, cursor?: string): Promise<RaffleWinnerNestedDto[]> {
    return (await this.draws.unclaimed(siteId, limit, cursor)).map(toWinnerDto);
  }
}

import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { RafflesRepository } from '../raffles.repository.js';
import { beaconRefusal, drawWinners, publicWinnerName } from './draw.rules.js';
import { type DrawState, DrawsRepository, type NewWinner } from './draws.repository.js';
import { toWinnerDto } from './draws.mapper.js';
import type { DrawRequestDto, DrawResultDto } from './dto/draws.dto.js';
import { TicketListService } from './ticket-list.service.js';

export const notClosed = (): AppException =>
  AppException.conflict('RAFFLE_NOT_CLOSED', 'Only a closed raffle can be drawn: close it first.');
export const alreadyDrawn = (): AppException =>
  AppException.conflict('ALREADY_DRAWN', 'This raffle has already been drawn.');

/**
 * `POST /admin/raffles/{id}/draw` (DESIGN §6 step 3): once, on a closed raffle whose ticket list is
 * published. One transaction claims the draw with a conditional UPDATE (a concurrent draw waits on the
 * row, then finds it drawn: 409), picks the winners, stores them, sets `winner_names` and queues their
 * e-mails; any failure rolls all of it back and the draw can be run again.
 */
@Injectable()
export class DrawService {
  constructor(
    private readonly draws: DrawsRepository,
    private readonly raffles: RafflesRepository,
    private readonly tickets: TicketListService,
    private readonly accounts: AccountsService,
    private readonly mail: MailService,
    private readonly tx: TransactionRunner,
  ) {}

  async draw(
    actor: AuthUser,
    siteId: string,
    raffleId: string,
    body: DrawRequestDto,
  ): Promise<DrawResultDto> {
    let state = await this.require(actor, siteId, raffleId);
    if (state.is_drawn) throw alreadyDrawn();
    if (!state.closed) throw notClosed();
    if (!state.ticket_list_hash) {
      await this.tickets.publish(raffleId);
      state = await this.require(actor, siteId, raffleId);
    }
    const beacon = body.beacon ?? null;
    const refused = beaconRefusal(state.draw_beacon_round, beacon);
    if (refused) throw AppException.unprocessable(refused.code, refused.message);
    const now = new Date();
    const raffle = await this.raffles.findById(raffleId);
    return this.tx.run(async () => {
      if (!(await this.draws.claimDraw(raffleId, beacon, now))) throw alreadyDrawn();
      const { entries } = await this.draws.counts(raffleId);
      const owners = new Map<string, string>();
      const picked = await drawWinners(
        {
          seed: state.draw_seed ?? '',
          raffleId,
          ticketListHash: state.ticket_list_hash ?? '',
          beacon,
          ticketCount: state.ticket_count ?? 0,
        },
        body.winners,
        entries,
        async (ticket) => {
          const entry = await this.draws.entryAt(raffleId, ticket);
          if (entry) owners.set(entry.id, entry.user_id);
          return entry?.id ?? null;
        },
      );
      const contacts = await this.accounts.contactsOf([...new Set(owners.values())]);
      const prize = raffle?.what_you_can_win_1 ?? raffle?.name ?? state.name;
      const rows: NewWinner[] = picked.map((p) => {
        const userId = owners.get(p.entry_id) ?? '';
        const contact = contacts.get(userId);
        return {
          raffle_id: raffleId,
          entry_id: p.entry_id,
          user_id: userId,
          site_id: state.site_id,
          giveaway: 'draw',
          giveaway_reference: `draw-${p.index}`,
          prize_description: prize,
          image: raffle?.main_image ?? null,
          ticket: p.ticket,
          draw_index: p.index,
          public_name: publicWinnerName(contact?.firstName ?? null, contact?.county ?? null),
          date_won: now,
        };
      });
      await this.draws.insertWinners(rows);
      const names = rows.map((r) => r.public_name).join(', ');
      await this.draws.setWinnerNames(raffleId, names);
      for (const row of rows) {
        const contact = contacts.get(row.user_id);
        if (!contact) continue;
        await this.mail.send({
          kind: 'raffle_winner',
          siteId: row.site_id,
          to: contact.email,
          userId: row.user_id,
          variables: {
            ...brandingOf(raffle?.mailer_email_params ?? {}),
            giveaway_name: state.name,
            ticket: row.ticket,
            prize: row.prize_description,
            instant: false,
            first_name: contact.firstName,
          },
        });
      }
      const stored = await this.draws.winnersOf(raffleId, 'draw');
      return {
        raffle_id: raffleId,
        drawn_at: now.toISOString(),
        winner_names: names,
        winners: stored.map(toWinnerDto),
      };
    });
  }

  /** An admin draws its own site's raffles; a superadmin any site's. Others' and drafts answer 404. */
  private async require(actor: AuthUser, siteId: string, raffleId: string): Promise<DrawState> {
    const state = await this.draws.drawState(raffleId);
    if (!state || (state.site_id !== siteId && actor.role !== 'superadmin'))
      throw AppException.notFound('Raffle');
    return state;
  }
}

/** The raffle's branding for its e-mails (scalar `mailer_email_params` only). */
export function brandingOf(params: Record<string, unknown>): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)),
  ) as Record<string, string | number | boolean>;
}

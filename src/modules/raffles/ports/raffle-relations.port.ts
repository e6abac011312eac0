import { Injectable } from '@nestjs/common';
import type { RaffleEntryNestedDto, RaffleWinnerNestedDto } from '../dto/raffle.dto.js';

/** Who is reading: public readers must not see entrants' addresses or agents (pseudonymous lists). */
export type RaffleAudience = 'public' | 'admin';

export interface RaffleRelationReaders {
  entries: (raffleIds: string[], audience: RaffleAudience) => Promise<Map<string, RaffleEntryNestedDto[]>>;
  winners: (raffleIds: string[], audience: RaffleAudience) => Promise<Map<string, RaffleWinnerNestedDto[]>>;
  /** Instant-win tickets won so far, per raffle and prize. */
  instantWon: (raffleIds: string[]) => Promise<Map<string, Map<string, number>>>;
}

const none = <T>(): Promise<Map<string, T[]>> => Promise.resolve(new Map<string, T[]>());

/**
 * A raffle nests its entries and winners, which the entries and draw parts register readers for when
 * they arrive. Until then each answers empty, so the Raffle has its full shape from the start.
 */
@Injectable()
export class RaffleRelationsPort {
  private readers: RaffleRelationReaders = {
    entries: () => none(),
    winners: () => none(),
    instantWon: () => Promise.resolve(new Map<string, Map<string, number>>()),
  };

  provide<K extends keyof RaffleRelationReaders>(kind: K, reader: RaffleRelationReaders[K]): void {
    this.readers = { ...this.readers, [kind]: reader };
  }

  /** One query per kind for all the raffles asked about (no N+1). */
  async load(
    raffleIds: string[],
    audience: RaffleAudience,
  ): Promise<{
    entries: Map<string, RaffleEntryNestedDto[]>;
    winners: Map<string, RaffleWinnerNestedDto[]>;
    instantWon: Map<string, Map<string, number>>;
  }> {
    if (!raffleIds.length) return { entries: new Map(), winners: new Map(), instantWon: new Map() };
    const [entries, winners] = await Promise.all([
      this.readers.entries(raffleIds, audience),
      this.readers.winners(raffleIds, audience),
    ]);
    const instantWon = await this.readers.instantWon(raffleIds);
    return { entries, winners, instantWon };
  }
}

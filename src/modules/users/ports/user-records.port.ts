import { Injectable } from '@nestjs/common';
import type {
  PaymentTransactionRecordDto,
  PointTransactionRecordDto,
  RaffleEntryRecordDto,
} from '../dto/user-records.dto.js';

/**
 * The User record nests data owned by higher features (payments, rewards, raffles). Users declares
 * what it needs as readers; the owning feature registers one at start-up (DESIGN §1). Until then a
 * reader answers empty, so the User keeps its full shape from day one.
 */
export interface UserRecordReaders {
  payment_transactions: (userIds: string[]) => Promise<Map<string, PaymentTransactionRecordDto[]>>;
  points: (userIds: string[]) => Promise<Map<string, PointTransactionRecordDto[]>>;
  raffle_entries: (userIds: string[]) => Promise<Map<string, RaffleEntryRecordDto[]>>;
}

const none = <T>(): Promise<Map<string, T[]>> => Promise.resolve(new Map<string, T[]>());

@Injectable()
export class UserRecordsPort {
  private readers: UserRecordReaders = {
    payment_transactions: () => none(),
    points: () => none(),
    raffle_entries: () => none(),
  };

  provide<K extends keyof UserRecordReaders>(kind: K, reader: UserRecordReaders[K]): void {
    this.readers = { ...this.readers, [kind]: reader };
  }

  /** One query per kind for all the users asked about (no N+1). */
  async load(userIds: string[]): Promise<{
    payment_transactions: Map<string, PaymentTransactionRecordDto[]>;
    points: Map<string, PointTransactionRecordDto[]>;
    raffle_entries: Map<string, RaffleEntryRecordDto[]>;
  }> {
    const [payment_transactions, points, raffle_entries] = await Promise.all([
      this.readers.payment_transactions(userIds),
      this.readers.points(userIds),
      this.readers.raffle_entries(userIds),
    ]);
    return { payment_transactions, points, raffle_entries };
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { PointTransactionRecordDto } from '#app/modules/users/dto/user-records.dto.js';
import { UserRecordsPort } from '#app/modules/users/ports/user-records.port.js';
import { toPointTransactionRecordDto } from './points.mapper.js';
import { PointsRepository } from './points.repository.js';

/** Newest entries nested in a User record; the whole history is `GET /rewards/points`. */
export const POINTS_PER_USER_RECORD = 50;

/** Gives the users feature the points it nests in the User record (DESIGN §1, read port). */
@Injectable()
export class PointsRecordsReader implements OnModuleInit {
  constructor(
    private readonly port: UserRecordsPort,
    private readonly ledger: PointsRepository,
  ) {}

  onModuleInit(): void {
    this.port.provide('points', (userIds) => this.read(userIds));
  }

  /** One query for all the users asked about. */
  async read(userIds: string[]): Promise<Map<string, PointTransactionRecordDto[]>> {
    const byUser = new Map<string, PointTransactionRecordDto[]>();
    for (const row of await this.ledger.recentOf(userIds, POINTS_PER_USER_RECORD)) {
      const list = byUser.get(row.user_id) ?? [];
      list.push(toPointTransactionRecordDto(row));
      byUser.set(row.user_id, list);
    }
    return byUser;
  }
}

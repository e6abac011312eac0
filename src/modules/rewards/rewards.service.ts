import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { PointAdjustmentDto, PointTransactionDto } from './dto/point-transaction.dto.js';
import type { AdjustPointsDto } from './dto/rewards-requests.dto.js';
import { toPointTransactionDto } from './points.mapper.js';
import { PointsRepository } from './points.repository.js';
import { PointsService } from './points.service.js';

/** What the rewards routes do: a user's own ledger, and admins' adjustments. */
@Injectable()
export class RewardsService {
  constructor(
    private readonly points: PointsService,
    private readonly ledger: PointsRepository,
    private readonly accounts: AccountsService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  async ledgerOf(userId: string, limit: number, cursor?: string): Promise<PointTransactionDto[]> {
    if (cursor !== undefined && !isUUID(cursor))
      throw AppException.validation([{ field: 'cursor', message: 'cursor must come from X-Next-Cursor' }]);
    const rows = await this.ledger.page(userId, limit, cursor);
    return rows.map(toPointTransactionDto);
  }

  /** An admin adds or removes points of a user of its site, logged with who and why. */
  async adjust(
    admin: AuthUser,
    siteId: string,
    body: AdjustPointsDto,
    meta: RequestMeta,
  ): Promise<PointAdjustmentDto> {
    if (!isUUID(body.user_id)) throw AppException.notFound('User');
    return this.tx.run(async (manager) => {
      const user = await this.accounts.findById(body.user_id, manager);
      if (!user || user.site_id !== siteId) throw AppException.notFound('User');
      const { transaction, balance } = await this.points.adjust(manager, {
        userId: user.id,
        siteId: user.site_id,
        amount: body.amount,
        reason: body.reason,
        createdBy: admin.id,
        meta,
      });
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.site_id,
          type: 'points_adjustment',
          description: `Points adjusted by ${body.amount} by an admin`,
          resourceType: 'point_transaction',
          resourceId: transaction.id,
          metadata: { amount: body.amount, balance, reason: body.reason, by: admin.id },
        },
        meta,
        manager,
      );
      return { ...toPointTransactionDto(transaction), balance };
    });
  }
}

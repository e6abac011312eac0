import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { sentFields } from '#app/common/validation/sent-fields.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ActivityLogService } from './activity-log.service.js';
import type { UpdateProfileDto } from './dto/update-profile.dto.js';
import type { UserDto, UserSummaryDto } from './dto/user.dto.js';
import type { User } from './entities/user.entity.js';
import { UserRecordsPort } from './ports/user-records.port.js';
import { toUserDto, toUserSummaryDto } from './users.mapper.js';
import { SignupHooks } from './ports/signup-hooks.port.js';
import { UsersRepository } from './users.repository.js';
import { canAssignRole, consentChanged, isRoleChangeAttempt } from './users.rules.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly activity: ActivityLogService,
    private readonly records: UserRecordsPort,
    private readonly tx: TransactionRunner,
    private readonly signups: SignupHooks,
  ) {}

  /** The User with its nested profile, activity and the records other features own. */
  async getUser(id: string): Promise<UserDto> {
    const user = await this.users.findById(id);
    if (!user) throw AppException.notFound('User');
    const [logs, records] = await Promise.all([this.activity.recentFor([id]), this.records.load([id])]);
    return toUserDto(user, {
      activity_logs: logs.get(id) ?? [],
      payment_transactions: records.payment_transactions.get(id) ?? [],
      points: records.points.get(id) ?? [],
      raffle_entries: records.raffle_entries.get(id) ?? [],
    });
  }

  async updateProfile(caller: AuthUser, body: UpdateProfileDto, meta: RequestMeta): Promise<UserDto> {
    if (isRoleChangeAttempt(body, caller.role))
      throw AppException.forbidden('You cannot change your own role.');
    await this.tx.run(async (manager) => {
      // The member's row first, then read live: an erasure committed meanwhile is seen (404), and one that
      // comes after waits for this and clears what it wrote.
      await this.users.lockForSessionEnd(caller.id, manager);
      const user = await this.users.findById(caller.id, manager);
      if (!user) throw AppException.notFound('User');
      const changes: Partial<User> = {};
      if (consentChanged(user.marketing_consent, body.marketing_consent)) {
        changes.marketing_consent = body.marketing_consent;
        changes.consent_given_at = new Date();
        await this.activity.record(
          {
            userId: user.id,
            siteId: user.site_id,
            type: 'consent_change',
            description: `Marketing consent ${body.marketing_consent ? 'given' : 'withdrawn'}`,
            metadata: { marketing_consent: body.marketing_consent },
          },
          meta,
          manager,
        );
        await this.signups.consentChanged({
          userId: user.id,
          siteId: user.site_id,
          email: user.email,
          marketingConsent: body.marketing_consent,
        });
      }
      if (Object.keys(changes).length) await this.users.update(user.id, changes, manager);
      const profile = sentFields(body.profile ?? {});
      const profileFields = Object.keys(profile);
      if (profileFields.length) await this.users.updateProfile(user.id, profile, manager);
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.site_id,
          type: 'profile_update',
          description: 'Profile updated',
          resourceType: 'user',
          resourceId: user.id,
          metadata: { fields: profileFields, marketing_consent: body.marketing_consent ?? null },
        },
        meta,
        manager,
      );
    });
    return this.getUser(caller.id);
  }

  async findUsers(
    siteId: string,
    email: string | undefined,
    limit: number,
    cursor?: string,
  ): Promise<UserSummaryDto[]> {
    const rows = await this.users.find(siteId, email, limit, cursor);
    return rows.map(toUserSummaryDto);
  }

  async setRole(
    actor: AuthUser,
    targetId: string,
    role: 'user' | 'admin',
    meta: RequestMeta,
  ): Promise<UserSummaryDto> {
    return this.tx.run(async (manager) => {
      const target = await this.users.findById(targetId, manager);
      if (!target) throw AppException.notFound('User');
      if (!canAssignRole(actor, target, role)) throw AppException.forbidden('You may not set this role.');
      if (target.role !== role) {
        await this.users.update(target.id, { role }, manager);
        await this.activity.record(
          {
            userId: target.id,
            siteId: target.site_id,
            type: 'role_change',
            description: `Role changed from ${target.role} to ${role}`,
            severity: 'warning',
            metadata: { from: target.role, to: role, by: actor.id },
          },
          meta,
          manager,
        );
      }
      return toUserSummaryDto({ ...target, role });
    });
  }
}

import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SessionService } from '#app/modules/auth/session.service.js';
import type { User } from '#app/modules/users/entities/user.entity.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';

/**
 * Accounts for benchmarks and load tests, made through the app's own services (as registration makes
 * them, without a password: they sign in by token), each with a unique e-mail at `domain`.
 */
export function accountMaker(app: INestApplication, siteId: string, domain: string) {
  return (role: User['role'], label: string | number = role, name: string | null = null): Promise<User> =>
    app.get(TransactionRunner).run((manager) =>
      app.get(AccountsService).create(
        {
          site_id: siteId,
          email: `${role}-${label}-${randomBytes(3).toString('hex')}@${domain}`,
          name,
          role,
          signup_source: 'bench',
          password_hash: null,
          data_processing_consent: true,
        },
        manager,
      ),
    );
}

/** An access token for `user`, as signing in would issue it. */
export async function accessTokenOf(app: INestApplication, user: User): Promise<string> {
  return (await app.get(SessionService).issue(user)).access_token;
}

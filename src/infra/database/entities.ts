import { IdempotencyKey } from '#app/common/idempotency/idempotency-key.entity.js';
import { OneTimeToken } from '#app/modules/auth/entities/one-time-token.entity.js';
import { RefreshToken } from '#app/modules/auth/entities/refresh-token.entity.js';
import { UserLimit } from '#app/modules/responsible-play/entities/user-limit.entity.js';
import { UserMonthlySpend } from '#app/modules/responsible-play/entities/user-monthly-spend.entity.js';
import { PointTransaction } from '#app/modules/rewards/entities/point-transaction.entity.js';
import { RewardsBalance } from '#app/modules/rewards/entities/rewards-balance.entity.js';
import { SiteConfig } from '#app/modules/sites/entities/site-config.entity.js';
import { ActivityLog } from '#app/modules/users/entities/activity-log.entity.js';
import { UserProfile } from '#app/modules/users/entities/user-profile.entity.js';
import { User } from '#app/modules/users/entities/user.entity.js';

/** Every entity, listed explicitly so the same list works compiled (tsc) and under jest (SWC). */
export const ENTITIES = [
  SiteConfig,
  User,
  UserProfile,
  ActivityLog,
  RefreshToken,
  OneTimeToken,
  IdempotencyKey,
  PointTransaction,
  RewardsBalance,
  UserLimit,
  UserMonthlySpend,
];

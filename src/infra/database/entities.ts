import { RaffleInstantTicket } from '#app/modules/raffles/draws/entities/raffle-instant-ticket.entity.js';
import { RaffleWinner } from '#app/modules/raffles/draws/entities/raffle-winner.entity.js';
import { MerchOrderItem } from '#app/modules/merch/entities/merch-order-item.entity.js';
import { MerchOrder } from '#app/modules/merch/entities/merch-order.entity.js';
import { MerchProduct } from '#app/modules/merch/entities/merch-product.entity.js';
import { CmsSubmission } from '#app/modules/cms/entities/cms-submission.entity.js';
import { BonusCredits } from '#app/modules/gaming/entities/bonus-credits.entity.js';
import { SpinClaim } from '#app/modules/gaming/entities/spin-claim.entity.js';
import { SecretsKeyCheck } from '#app/infra/crypto/secrets-key-check.entity.js';
import { OneTimeToken } from '#app/modules/auth/entities/one-time-token.entity.js';
import { RefreshToken } from '#app/modules/auth/entities/refresh-token.entity.js';
import { Raffle } from '#app/modules/raffles/entities/raffle.entity.js';
import { DiscountBrand } from '#app/modules/discounts/entities/discount-brand.entity.js';
import { DiscountCodeTag } from '#app/modules/discounts/entities/discount-code-tag.entity.js';
import { DiscountCode } from '#app/modules/discounts/entities/discount-code.entity.js';
import { DiscountClaim } from '#app/modules/discounts/entities/discount-claim.entity.js';
import { DiscountUniqueCode } from '#app/modules/discounts/entities/discount-unique-code.entity.js';
import { Tag } from '#app/modules/discounts/entities/tag.entity.js';
import { IdempotencyKey } from '#app/common/idempotency/idempotency-key.entity.js';
import { UserLimit } from '#app/modules/responsible-play/entities/user-limit.entity.js';
import { UserMonthlySpend } from '#app/modules/responsible-play/entities/user-monthly-spend.entity.js';
import { LimitHold } from '#app/modules/responsible-play/entities/limit-hold.entity.js';
import { PointTransaction } from '#app/modules/rewards/entities/point-transaction.entity.js';
import { Referral } from '#app/modules/rewards/entities/referral.entity.js';
import { RewardsBalance } from '#app/modules/rewards/entities/rewards-balance.entity.js';
import { InboundEvent } from '#app/modules/payments/entities/inbound-event.entity.js';
import { PaymentTransaction } from '#app/modules/payments/entities/payment-transaction.entity.js';
import { RaffleEntry } from '#app/modules/raffles/entries/entities/raffle-entry.entity.js';
import { RaffleUserEntries } from '#app/modules/raffles/entries/entities/raffle-user-entries.entity.js';
import { SiteConfig } from '#app/modules/sites/entities/site-config.entity.js';
import { SubscriptionTier } from '#app/modules/subscriptions/entities/subscription-tier.entity.js';
import { Subscription } from '#app/modules/subscriptions/entities/subscription.entity.js';
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
  SecretsKeyCheck,
  SubscriptionTier,
  Subscription,
  Raffle,
  DiscountBrand,
  Tag,
  DiscountCode,
  DiscountCodeTag,
  DiscountUniqueCode,
  DiscountClaim,
  IdempotencyKey,
  PointTransaction,
  RewardsBalance,
  Referral,
  UserLimit,
  UserMonthlySpend,
  LimitHold,
  RaffleEntry,
  RaffleUserEntries,
  PaymentTransaction,
  InboundEvent,
  SpinClaim,
  BonusCredits,
  RaffleWinner,
  RaffleInstantTicket,
  MerchProduct,
  MerchOrder,
  MerchOrderItem,
  CmsSubmission,
];

import { Initial1795309629902 } from './1795309629902-Initial.js';
import { SiteSettingsAndSecretsKeyCheck1795310210010 } from './1795310210010-SiteSettingsAndSecretsKeyCheck.js';
import { SubscriptionTiersAndRaffles1795310459269 } from './1795310459269-SubscriptionTiersAndRaffles.js';
import { AddIdempotencyKeys1795311316607 } from './1795311316607-AddIdempotencyKeys.js';
import { AddPointsLedger1795311316608 } from './1795311316608-AddPointsLedger.js';
import { AddResponsiblePlay1795311316609 } from './1795311316609-AddResponsiblePlay.js';
import { DiscountCatalogue1795311658932 } from './1795311658932-DiscountCatalogue.js';
import { PaymentsAndEntries1795313368119 } from './1795313368119-PaymentsAndEntries.js';
import { TicketsRefusedFunction1795490000000 } from './1795490000000-TicketsRefusedFunction.js';
import { Subscriptions1795494021948 } from './1795494021948-Subscriptions.js';
import { RewardsEconomy1795577151536 } from './1795577151536-RewardsEconomy.js';
import { Gaming1795577274257 } from './1795577274257-Gaming.js';
import { Merch1795578719809 } from './1795578719809-Merch.js';
import { Cms1795579739849 } from './1795579739849-Cms.js';
import { Draws1795579744530 } from './1795579744530-Draws.js';
import { RaffleEntriesNewestPerRaffle1795590393522 } from './1795590393522-RaffleEntriesNewestPerRaffle.js';
import { PaymentClaimLostFunction1795600000000 } from './1795600000000-PaymentClaimLostFunction.js';
import { HeldRefunds1795610000000 } from './1795610000000-HeldRefunds.js';
import { ActivityActor1795620000000 } from './1795620000000-ActivityActor.js';
import { MerchLineCostDigits1795630000000 } from './1795630000000-MerchLineCostDigits.js';
import { RafflePricesInCurrencyUnits1795640000000 } from './1795640000000-RafflePricesInCurrencyUnits.js';
import { LimitHolds1795650000000 } from './1795650000000-LimitHolds.js';
import { PausedFrom1795660000000 } from './1795660000000-PausedFrom.js';
import { EntryVoids1795661000000 } from './1795661000000-EntryVoids.js';
import { ReconcileBackoff1795670000000 } from './1795670000000-ReconcileBackoff.js';
import { NfcEmailAddresses1795680000000 } from './1795680000000-NfcEmailAddresses.js';
import { ChargeClaimedAt1795690000000 } from './1795690000000-ChargeClaimedAt.js';
import { GatewayPaymentIndex1795700000000 } from './1795700000000-GatewayPaymentIndex.js';
import { SessionsValidFrom1795710000000 } from './1795710000000-SessionsValidFrom.js';
import { LastFailedLogin1795720000000 } from './1795720000000-LastFailedLogin.js';
import { DrawBeaconRound1795730000000 } from './1795730000000-DrawBeaconRound.js';
import { LateSuccessWatch1795740000000 } from './1795740000000-LateSuccessWatch.js';
import { RefundReservedAt1795750000000 } from './1795750000000-RefundReservedAt.js';
import { EndedMembershipsBillNoMore1795760000000 } from './1795760000000-EndedMembershipsBillNoMore.js';
import { PaymentNotifiedAt1795770000000 } from './1795770000000-PaymentNotifiedAt.js';

/** Every migration, in order. `npm run migration:generate` writes a file here; list its class below. */
export const MIGRATIONS = [
  Initial1795309629902,
  SiteSettingsAndSecretsKeyCheck1795310210010,
  SubscriptionTiersAndRaffles1795310459269,
  AddIdempotencyKeys1795311316607,
  AddPointsLedger1795311316608,
  AddResponsiblePlay1795311316609,
  DiscountCatalogue1795311658932,
  PaymentsAndEntries1795313368119,
  TicketsRefusedFunction1795490000000,
  Subscriptions1795494021948,
  RewardsEconomy1795577151536,
  Gaming1795577274257,
  Merch1795578719809,
  Cms1795579739849,
  Draws1795579744530,
  RaffleEntriesNewestPerRaffle1795590393522,
  PaymentClaimLostFunction1795600000000,
  HeldRefunds1795610000000,
  ActivityActor1795620000000,
  MerchLineCostDigits1795630000000,
  RafflePricesInCurrencyUnits1795640000000,
  LimitHolds1795650000000,
  PausedFrom1795660000000,
  EntryVoids1795661000000,
  ReconcileBackoff1795670000000,
  NfcEmailAddresses1795680000000,
  ChargeClaimedAt1795690000000,
  GatewayPaymentIndex1795700000000,
  SessionsValidFrom1795710000000,
  LastFailedLogin1795720000000,
  DrawBeaconRound1795730000000,
  LateSuccessWatch1795740000000,
  RefundReservedAt1795750000000,
  EndedMembershipsBillNoMore1795760000000,
  PaymentNotifiedAt1795770000000,
];

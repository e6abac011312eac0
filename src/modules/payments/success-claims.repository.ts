import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import type { Fulfilment, PaymentStatus } from './entities/payment-transaction.entity.js';
import type { PaymentHead } from './hooks/payment-hooks.js';
import { headColumns } from './payment-head.js';

/** What a gateway's report changes on the row besides its status (null: leave as is). */
export interface ReportChanges {
  gatewayPaymentId: string | null;
  gatewayResponse: Record<string, unknown> | null;
  webhook: Record<string, unknown> | null;
  /** What a client claimed on endpoint 3: appended to `metadata.client_claims`, the newest 10 kept. */
  clientClaim: Record<string, unknown> | null;
}

/** How many client claims a payment keeps. */
export const CLIENT_CLAIMS_KEPT = 10;

/** The success, the fulfilment's mark and the report ($2–$7) written on the claimed row `p`. */
const SUCCEEDED = `
     SET status = 'succeeded', fulfilled_at = now(), fulfilment = $2, updated_at = now(),
         gateway_transaction_id = COALESCE($3, p.gateway_transaction_id),
         gateway_response = COALESCE($4::jsonb, p.gateway_response),
         webhook_received_at = CASE WHEN $5::jsonb IS NULL THEN p.webhook_received_at ELSE now() END,
         webhook_data = COALESCE($5::jsonb, p.webhook_data),
         metadata = p.metadata
           || CASE WHEN $6::jsonb IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('client_claims',
                (SELECT jsonb_agg(c ORDER BY n) FROM (
                   SELECT c, n FROM jsonb_array_elements(
                       COALESCE(p.metadata->'client_claims', '[]'::jsonb) || jsonb_build_array($6::jsonb))
                     WITH ORDINALITY AS claims(c, n)
                    ORDER BY n DESC LIMIT ${CLIENT_CLAIMS_KEPT}) newest)) END
           || CASE WHEN $7::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('unfillable', $7::text) END`;

/**
 * The status transition to `succeeded` and the exactly-once fulfilment claim in one conditional UPDATE:
 * only a payment nobody fulfilled yet, still open or given up (a late success), moves; the locking
 * subquery hands back the status it moved from. Zero rows: another caller won, or the payment is final.
 */
const CLAIM_SUCCESS = keepPlan(`
  UPDATE payment_transactions p ${SUCCEEDED}
    FROM (SELECT status FROM payment_transactions WHERE id = $1 FOR UPDATE) previous
   WHERE p.id = $1 AND p.fulfilled_at IS NULL AND p.status IN ('pending', 'review', 'failed', 'cancelled')
  RETURNING previous.status AS previous_status, ${headColumns('p')}`);

/**
 * The same claim of a payment still in the status it was read in ($8), and with the buyer's pause mark it was
 * read with ($9: a pause that began since was planned without), sent ahead of the whole fulfilment in one
 * message: when it claims nothing (another caller won, or the payment moved or was marked since) it raises
 * (`payment_claim_lost`), so nothing after it runs. The aggregate makes the verdict run once, rows or none.
 */
const CLAIM_SUCCESS_AS_READ = keepPlan(`
  WITH claimed AS (
    UPDATE payment_transactions p ${SUCCEEDED}
     WHERE p.id = $1 AND p.fulfilled_at IS NULL AND p.status = $8
       AND p.status IN ('pending', 'review', 'failed', 'cancelled')
       AND p.metadata->>'buyer_paused_until' IS NOT DISTINCT FROM $9
    RETURNING ${headColumns('p')}),
  verdict AS (SELECT CASE WHEN count(*) > 0 THEN true ELSE payment_claim_lost($1) END AS won FROM claimed)
  SELECT claimed.* FROM verdict LEFT JOIN claimed ON verdict.won`);

/** True when `error` is `CLAIM_SUCCESS_AS_READ` finding nothing to claim. */
function claimLost(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const cause = error.driverError as { code?: string; message?: string };
  return cause.code === 'P0001' && cause.message === 'CLAIM_LOST';
}

/**
 * The success claim that opens a sale's transaction (`PaymentOutcomeService`): its statement wins the
 * payment's fulfilment for one caller, exactly once, whichever of webhook, confirmation and
 * reconciliation comes first.
 */
@Injectable()
export class SuccessClaimsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Opens a transaction whose first statement moves an unfulfilled payment to `succeeded` and claims its
   * fulfilment, marked `fulfilment` (one round trip for both, `TransactionRunner.runOpening`), then runs
   * `then` in it with the claim — null when this caller did not win.
   */
  claimSuccessThen<T>(
    id: string,
    changes: ReportChanges,
    fulfilment: Fulfilment,
    unfillable: string | null,
    then: (claim: { previous: PaymentStatus; payment: PaymentHead } | null) => Promise<T>,
  ): Promise<T> {
    return this.tx.runOpening(
      { sql: CLAIM_SUCCESS, values: claimValues(id, changes, fulfilment, unfillable) },
      (rows) => {
        if (!rows.length) return then(null);
        const { previous_status, ...payment } = rows[0] as PaymentHead & { previous_status: PaymentStatus };
        return then({ previous: previous_status, payment });
      },
    );
  }

  /**
   * The claim of a payment as it was read (`read.status` still its status), held to travel with the
   * transaction's next message (`TransactionRunner.runHeldOpening`): `then` runs in the transaction knowing
   * the claim's outcome in advance (from `read.status` to `succeeded`), and when it defers every write, the
   * claim, the fulfilment and COMMIT are one round trip. Answers the claimed payment, or null when the
   * claim was lost (nothing of `then` was kept): the caller claims again the ordinary way.
   */
  async claimSuccessAsRead(
    read: PaymentHead,
    changes: ReportChanges,
    fulfilment: Fulfilment,
    unfillable: string | null,
    then: () => Promise<void>,
  ): Promise<PaymentHead | null> {
    const values = [
      ...claimValues(read.id, changes, fulfilment, unfillable),
      read.status,
      read.buyer_paused_until,
    ];
    let claimed: Promise<unknown[]> | undefined;
    try {
      await this.tx.runHeldOpening({ sql: CLAIM_SUCCESS_AS_READ, values }, (rows) => {
        claimed = rows;
        return then();
      });
      const rows = await claimed;
      return (rows?.[0] as PaymentHead | undefined) ?? null;
    } catch (error) {
      if (claimLost(error)) return null;
      throw error;
    }
  }
}

function claimValues(
  id: string,
  changes: ReportChanges,
  fulfilment: Fulfilment,
  unfillable: string | null,
): unknown[] {
  const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));
  return [
    id,
    fulfilment,
    changes.gatewayPaymentId,
    json(changes.gatewayResponse),
    json(changes.webhook),
    json(changes.clientClaim),
    unfillable,
  ];
}

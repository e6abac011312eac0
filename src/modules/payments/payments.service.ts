import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { PaymentPointsService } from '#app/modules/rewards/payment-points.service.js';
import { UserRecordsPort } from '#app/modules/users/ports/user-records.port.js';
import type { CreatePaymentDto, PaymentTransactionDto } from './dto/payment.dto.js';
import type { PaymentStatus, PaymentTransaction } from './entities/payment-transaction.entity.js';
import { PaymentHooks } from './hooks/payment-hooks.js';
import { OrdersService } from './orders.service.js';
import { toPaymentDto, toPaymentRecordDto } from './payments.mapper.js';
import { PaymentsRepository } from './payments.repository.js';
import { PAYMENT_METHOD_GATEWAY, type PaymentMethod, serviceKeysIn } from './payments.rules.js';
import { RefundsService } from './refunds.service.js';
import { formatMoney } from '#app/common/money.js';

/** Endpoint 6, reading payments, admin refunds; and the payments nested in the User record. */
@Injectable()
export class PaymentsService implements OnModuleInit {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly orders: OrdersService,
    private readonly refunds: RefundsService,
    private readonly points: PaymentPointsService,
    private readonly userRecords: UserRecordsPort,
    private readonly hooks: PaymentHooks,
  ) {}

  onModuleInit(): void {
    this.userRecords.provide('payment_transactions', async (userIds) => {
      const rows = await this.payments.ofUsers(userIds);
      const [points, subscriptions] = await Promise.all([
        this.points.recordsOfPayments(rows.map((r) => r.id)),
        this.hooks.subscriptionsOf([
          ...new Set(rows.flatMap((r) => (r.subscription_id ? [r.subscription_id] : []))),
        ]),
      ]);
      const byUser = new Map<string, ReturnType<typeof toPaymentRecordDto>[]>();
      for (const p of rows) {
        if (!p.user_id) continue;
        byUser.set(p.user_id, [
          ...(byUser.get(p.user_id) ?? []),
          toPaymentRecordDto(
            p,
            points.get(p.id) ?? [],
            p.subscription_id ? (subscriptions.get(p.subscription_id) ?? null) : null,
          ),
        ]);
      }
      return byUser;
    });
  }

  /** A pending generic payment with a checkout opened for it (`metadata.checkout_id`, `checkout_url`). */
  async create(user: AuthUser, body: CreatePaymentDto, meta: RequestMeta): Promise<PaymentTransactionDto> {
    const method = body.payment_method as PaymentMethod;
    const reserved = serviceKeysIn(body.metadata);
    if (reserved.length)
      throw AppException.validation(
        reserved.map((key) => ({
          field: `metadata.${key}`,
          message: `metadata.${key} is the service’s own`,
        })),
      );
    const { payment } = await this.orders.create(
      user,
      {
        gateway: PAYMENT_METHOD_GATEWAY[method],
        siteId: user.siteId,
        buyer: {},
        amountMajor: undefined,
        amountCents: body.amount_cents,
        currency: body.currency,
        description: body.description ?? `Payment of ${formatMoney(body.amount_cents, body.currency)}`,
        paymentMethod: method,
        metadata: body.metadata ?? {},
      },
      meta,
    );
    return toPaymentDto(payment);
  }

  async get(caller: AuthUser, id: string): Promise<PaymentTransactionDto> {
    return toPaymentDto(await this.visible(caller, id));
  }

  async list(
    siteId: string,
    status: PaymentStatus | undefined,
    limit: number,
    cursor?: string,
  ): Promise<PaymentTransactionDto[]> {
    return (await this.payments.list(siteId, status, limit, cursor)).map(toPaymentDto);
  }

  async refund(
    admin: AuthUser,
    id: string,
    amountCents: number | undefined,
    reason: string,
    meta: RequestMeta,
  ): Promise<PaymentTransactionDto> {
    const payment = await this.visible(admin, id);
    return toPaymentDto(await this.refunds.adminRefund(payment, amountCents, reason, admin.id, meta));
  }

  /** The owner sees its own; an admin its site's; a superadmin any. Anything else is 404. */
  private async visible(caller: AuthUser, id: string): Promise<PaymentTransaction> {
    const payment = await this.payments.findById(id);
    const allowed =
      payment &&
      (caller.role === 'superadmin' ||
        payment.user_id === caller.id ||
        (caller.role === 'admin' && payment.site_id === caller.siteId));
    if (!payment || !allowed) throw AppException.notFound('Payment');
    return payment;
  }
}

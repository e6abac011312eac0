import { Global, Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RequestMeta } from '#app/common/http/request-meta.js';

/** A new account, as registration hands it to the features that act on a signup. */
export interface Signup {
  userId: string;
  siteId: string;
  email: string;
  at: Date;
  /** What the registration form carried for other features (`referral_code`, `spin_token`). */
  referralCode: string | null;
  spinToken: string | null;
  meta: RequestMeta;
}

/** A feature's part in a registration: runs in its transaction; throwing refuses the registration. */
export type SignupHook = (signup: Signup) => Promise<void>;

/** Any new account, however it was made (registration, a guest purchase, a website form, start-up). */
export interface CreatedAccount {
  userId: string;
  siteId: string;
  email: string;
  at: Date;
  /** The transaction that inserted the row: a hook's writes commit or roll back with it. */
  manager: EntityManager;
}
export type AccountHook = (account: CreatedAccount) => Promise<void>;

export interface ConsentChange {
  userId: string;
  siteId: string;
  email: string;
  marketingConsent: boolean;
}
export type ConsentHook = (change: ConsentChange) => Promise<void>;

/**
 * The port through which referrals and the spin wheel act on a registration without auth knowing them
 * (and without module cycles). Register in `onModuleInit`; hooks run in registration order.
 */
@Injectable()
export class SignupHooks {
  private readonly hooks: SignupHook[] = [];
  private readonly consentHooks: ConsentHook[] = [];
  private readonly accountHooks: AccountHook[] = [];

  /** Told of every account made, in the transaction that made it (responsible play carries held limits). */
  onAccountCreated(hook: AccountHook): void {
    this.accountHooks.push(hook);
  }

  async accountCreated(account: CreatedAccount): Promise<void> {
    for (const hook of this.accountHooks) await hook(account);
  }

  /** Also told of a marketing-consent change (in its transaction): the contact list follows it. */
  onConsent(hook: ConsentHook): void {
    this.consentHooks.push(hook);
  }

  async consentChanged(change: ConsentChange): Promise<void> {
    for (const hook of this.consentHooks) await hook(change);
  }

  listen(hook: SignupHook): void {
    this.hooks.push(hook);
  }

  async joined(signup: Signup): Promise<void> {
    for (const hook of this.hooks) await hook(signup);
  }
}

@Global()
@Module({ providers: [SignupHooks], exports: [SignupHooks] })
export class SignupHooksModule {}

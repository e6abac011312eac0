import { Global, Injectable, Module } from '@nestjs/common';

/**
 * Entry credits a user can spend on raffles (`method: "credits"`): a membership's credits for the
 * period, bonus credits won on the spin wheel. Each source takes all of `quantity` or nothing, in the
 * ambient transaction, never below zero under concurrency (one conditional UPDATE).
 */
export interface CreditSource {
  take(req: { userId: string; siteId: string; quantity: number }): Promise<boolean>;
}

/**
 * The port the features that hold credits register their source with (in `onModuleInit`, with an
 * order: lower first), so that entries spend credits without knowing memberships or games — and
 * without module cycles: this module imports nothing.
 */
@Injectable()
export class EntryCredits {
  private readonly sources: Array<{ name: string; order: number; source: CreditSource }> = [];

  provide(name: string, source: CreditSource, order = 100): void {
    this.sources.push({ name, order, source });
    this.sources.sort((a, b) => a.order - b.order);
  }

  /** Takes `quantity` credits from the first source that holds them all; the source's name, or null. */
  async take(req: { userId: string; siteId: string; quantity: number }): Promise<string | null> {
    for (const { name, source } of this.sources) if (await source.take(req)) return name;
    return null;
  }
}

@Global()
@Module({ providers: [EntryCredits], exports: [EntryCredits] })
export class EntryCreditsModule {}

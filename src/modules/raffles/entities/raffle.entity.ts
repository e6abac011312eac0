import { Check, Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

/** `discount` is a percentage (0–100) off single tickets once `min_quantity` are bought (DESIGN §6). */
export interface DiscountTier {
  discount: number;
  min_quantity: number;
}

/**
 * A bundle of `quantity` tickets at `percentage` % off the unit price; `qty` is its legacy alias and
 * `discount` the saving in major units, recomputed by the server from the price (DESIGN §6).
 */
export interface Upsell {
  discount: number;
  percentage: number;
  qty: number;
  quantity: number;
}

/** An instant-win prize and how many tickets win it (admin, before publication; DESIGN §6). */
export interface InstantWinPrize {
  prize: string;
  count: number;
}

export type MailerEmailParams = Record<string, string | boolean | null>;

const numeric = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

@Entity('raffles')
// Last line of defence under the service's own checks: tickets never oversold, prices never negative.
@Check('ck_raffles_tickets', '"current_entries" >= 0 AND "current_entries" <= "total_entries_available"')
@Check('ck_raffles_purchased', '"entries_purchased" >= 0 AND "entries_purchased" <= "current_entries"')
@Check('ck_raffles_price', '"price_cents" >= 0')
@Check('ck_raffles_dates', '"end_date" > "start_date"')
// `item_id` names a raffle to the website and the checkout; unique per site, reusable across sites.
@Index('uq_raffles_site_item', ['site_id', 'item_id'], { unique: true })
// Endpoint 17 without a site looks an item up across sites.
@Index('ix_raffles_item', ['item_id'])
// Admin list: a site's raffles, newest first.
@Index('ix_raffles_site_created', ['site_id', 'created_at', 'id'])
// Public list: a site's published raffles, ending soonest first.
@Index('ix_raffles_site_public', ['site_id', 'end_date', 'id'], {
  where: 'draft = false AND archived = false',
})
export class Raffle extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 100 })
  item_id!: string;

  @Column({ type: 'varchar', length: 100, nullable: true }) collection_id!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) locale_id!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) cms_site_id!: string | null;

  @Column({ type: 'varchar', length: 200 }) name!: string;
  @Column({ type: 'varchar', length: 200, nullable: true }) slug!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) campaign_name!: string | null;
  @Column({ type: 'varchar', length: 50, nullable: true }) giveaway_type!: string | null;

  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text', nullable: true }) long_description!: string | null;
  @Column({ type: 'text', nullable: true }) short_teaser!: string | null;
  @Column({ type: 'text', nullable: true }) details!: string | null;
  @Column({ type: 'text', nullable: true }) hero_header!: string | null;
  @Column({ type: 'text', nullable: true }) hero_description!: string | null;
  @Column({ type: 'text', nullable: true }) cta_text!: string | null;
  @Column({ type: 'text', nullable: true }) final_cta_heading!: string | null;
  @Column({ type: 'text', nullable: true }) final_cta_description!: string | null;
  @Column({ type: 'text', nullable: true }) main_image!: string | null;
  @Column({ type: 'text', nullable: true }) image_gallery!: string | null;
  @Column({ type: 'text', nullable: true }) quick_buy_options!: string | null;
  @Column({ type: 'text', nullable: true }) quick_wins!: string | null;
  @Column({ type: 'text', nullable: true }) what_you_can_win_1!: string | null;
  @Column({ type: 'text', nullable: true }) what_you_can_win_2!: string | null;
  @Column({ type: 'text', nullable: true }) what_you_can_win_3!: string | null;
  @Column({ type: 'text', nullable: true }) what_you_can_win_4!: string | null;
  @Column({ type: 'text', nullable: true }) worth_total!: string | null;
  @Column({ type: 'text', nullable: true }) worth_subline!: string | null;
  @Column({ type: 'text', nullable: true }) winner_names!: string | null;
  @Column({ type: 'text', nullable: true }) last_person_who_brought!: string | null;
  @Column({ type: 'text', nullable: true }) checkout_description!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) checkout_success_url!: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) checkout_failure_url!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) gatewaytwo_product_id!: string | null;

  @Column({ type: 'char', length: 3 }) currency!: string;

  /** Unit price in cents; the API shows it as `price_display` in major units. */
  @Column({ type: 'integer' }) price_cents!: number;

  @Column({ type: 'integer', default: 0 }) points_required!: number;
  @Column({ type: 'boolean', default: false }) points_enabled!: boolean;
  @Column({ type: 'numeric', precision: 10, scale: 4, nullable: true, transformer: numeric })
  points_multiplier!: number | null;

  /** Most tickets one user may hold; null = no per-user cap below the raffle's own. */
  @Column({ type: 'integer', nullable: true }) max_entries!: number | null;
  @Column({ type: 'integer' }) total_entries_available!: number;
  /** Tickets taken so far, every way in; the hot counter (DESIGN §6). */
  @Column({ type: 'integer', default: 0 }) current_entries!: number;
  /** Tickets paid for (a subset of `current_entries`). */
  @Column({ type: 'integer', default: 0 }) entries_purchased!: number;

  @Column({ type: 'boolean', default: false }) active!: boolean;
  @Column({ type: 'boolean', default: false }) allow_free_entries!: boolean;
  @Column({ type: 'boolean', default: false }) archived!: boolean;
  @Column({ type: 'boolean', default: false }) closed!: boolean;
  @Column({ type: 'boolean', default: true }) draft!: boolean;
  @Column({ type: 'boolean', default: false }) is_drawn!: boolean;

  @Column({ type: 'timestamptz' }) start_date!: Date;
  @Column({ type: 'timestamptz' }) end_date!: Date;
  @Column({ type: 'timestamptz', nullable: true }) drawn_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) published_on!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) closed_at!: Date | null;

  @Column({ type: 'jsonb', default: () => "'[]'" }) discount_tiers!: DiscountTier[];
  @Column({ type: 'jsonb', default: () => "'[]'" }) upsells!: Upsell[];
  @Column({ type: 'jsonb', default: () => "'{}'" }) mailer_email_params!: MailerEmailParams;

  /** The admin who created it. */
  @Column({ type: 'uuid', nullable: true }) created_by!: string | null;

  /**
   * Commit-reveal draw (DESIGN §6): a secret seed drawn at publication, never selected by default and
   * never returned before the draw; its sha256 is public from publication on.
   */
  @Column({ type: 'varchar', length: 64, nullable: true, select: false }) draw_seed!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) draw_seed_hash!: string | null;

  /** sha256 (hex) of the ticket list CSV, published at the close (DESIGN §6 step 2); null until then. */
  @Column({ type: 'varchar', length: 64, nullable: true }) ticket_list_hash!: string | null;
  /** Tickets sold when the list was published: the draw's N. */
  @Column({ type: 'integer', nullable: true }) ticket_count!: number | null;
  /**
   * The public random value the draw will take, announced before the close (a future drand round, named as
   * its source and round): set while the raffle is open, final at the close. Without one, the draw takes none.
   */
  @Column({ type: 'varchar', length: 200, nullable: true }) draw_beacon_round!: string | null;
  /** The public random value given at the draw (the announced round's), if any. */
  @Column({ type: 'varchar', length: 200, nullable: true }) draw_beacon!: string | null;

  /** Instant-win prizes; fixed at publication, when their winning tickets are drawn from the seed. */
  @Column({ type: 'jsonb', default: () => "'[]'" }) instant_wins!: InstantWinPrize[];
  /** The ticket range 1..this the instant-win tickets were drawn over (total_entries_available then). */
  @Column({ type: 'integer', nullable: true }) instant_win_total!: number | null;
}

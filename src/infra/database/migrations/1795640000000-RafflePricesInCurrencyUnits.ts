import { type MigrationInterface, type QueryRunner } from 'typeorm';

/*
 * ISO 4217 exponents other than 2 as of this migration (a snapshot: a migration must not follow later
 * changes to src/common/money.ts).
 */
const NO_MINOR_UNIT = `'BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND','VUV','XAF','XOF','XPF'`;
const THOUSANDTHS = `'BHD','IQD','JOD','KWD','LYD','OMR','TND'`;
const TEN_THOUSANDTHS = `'CLF','UYW'`;

/**
 * `raffles.price_cents` was kept in hundredths whatever the currency, while the gateways charge in the
 * currency's own minor unit: a ¥500 ticket (stored 50000) was charged ¥50,000. Prices now hold the
 * currency's own unit, so those of other currencies are rescaled, keeping the price shown. A yen price
 * with hundredths (500.50, which no gateway can charge) rounds half up to the yen. Bundles' displayed
 * savings round with it. A price that would not fit the column fails the migration rather than change.
 */
export class RafflePricesInCurrencyUnits1795640000000 implements MigrationInterface {
  name = 'RafflePricesInCurrencyUnits1795640000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "raffles" SET "price_cents" = round("price_cents" / 100.0)::integer,
         "upsells" = (SELECT coalesce(jsonb_agg(
                        jsonb_set(u.value, '{discount}', to_jsonb(round((u.value->>'discount')::numeric)))
                        ORDER BY u.ordinality), '[]'::jsonb)
                      FROM jsonb_array_elements("upsells") WITH ORDINALITY AS u)
       WHERE "currency" IN (${NO_MINOR_UNIT})`,
    );
    await queryRunner.query(
      `UPDATE "raffles" SET "price_cents" = ("price_cents"::bigint * 10)::integer WHERE "currency" IN (${THOUSANDTHS})`,
    );
    await queryRunner.query(
      `UPDATE "raffles" SET "price_cents" = ("price_cents"::bigint * 100)::integer WHERE "currency" IN (${TEN_THOUSANDTHS})`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "raffles" SET "price_cents" = "price_cents" * 100 WHERE "currency" IN (${NO_MINOR_UNIT})`,
    );
    await queryRunner.query(
      `UPDATE "raffles" SET "price_cents" = round("price_cents" / 10.0)::integer WHERE "currency" IN (${THOUSANDTHS})`,
    );
    await queryRunner.query(
      `UPDATE "raffles" SET "price_cents" = round("price_cents" / 100.0)::integer WHERE "currency" IN (${TEN_THOUSANDTHS})`,
    );
  }
}

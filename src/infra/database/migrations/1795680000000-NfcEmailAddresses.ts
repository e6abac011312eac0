import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `users.email_normalized` in Unicode NFC (`normalizedEmail`): the addresses stored before were lower-cased
 * only, so one written with a combining accent is rewritten in its composed form, which is what lookups now
 * ask for. A row whose composed form another account of its site already has (one person registered twice,
 * the way this migration ends) is left as it was, so the unique index holds: that pair is an admin's to
 * merge or erase. ASCII addresses, nearly all, are already NFC.
 */
export class NfcEmailAddresses1795680000000 implements MigrationInterface {
  name = 'NfcEmailAddresses1795680000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "users" u SET "email_normalized" = normalize(u."email_normalized", NFC)
        WHERE u."email_normalized" IS NOT NFC NORMALIZED
          AND NOT EXISTS (SELECT 1 FROM "users" o
                           WHERE o."site_id" = u."site_id" AND o."id" <> u."id"
                             AND normalize(o."email_normalized", NFC) = normalize(u."email_normalized", NFC))`,
    );
  }

  public async down(): Promise<void> {
    // Nothing to undo: the composed form is the same address, and lookups before this read it too.
  }
}

import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class Cms1795579739849 implements MigrationInterface {
  name = 'Cms1795579739849';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "cms_submissions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "submission_id" character varying(200) NOT NULL,
                "source" character varying(20) NOT NULL,
                "form_name" character varying(200),
                "user_id" uuid,
                "user_created" boolean NOT NULL DEFAULT false,
                "actions" jsonb NOT NULL DEFAULT '[]',
                "payload" jsonb NOT NULL,
                CONSTRAINT "PK_3295558b920f98c89320eb85781" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cms_submissions_site_submission" ON "cms_submissions" ("site_id", "submission_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."uq_cms_submissions_site_submission"
        `);
    await queryRunner.query(`
            DROP TABLE "cms_submissions"
        `);
  }
}

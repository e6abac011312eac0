import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `raffles.draw_beacon_round`: the beacon round a draw will take, announced while the raffle is open. A draw
 * then needs that round's value, and a raffle that announced none takes no beacon: until now any beacon was
 * taken at the draw, and the seed's holder could pick one that made a chosen entry win.
 */
export class DrawBeaconRound1795730000000 implements MigrationInterface {
  name = 'DrawBeaconRound1795730000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "raffles"
            ADD "draw_beacon_round" character varying(200)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "raffles" DROP COLUMN "draw_beacon_round"
        `);
  }
}

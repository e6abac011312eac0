import { Initial1795309629902 } from './1795309629902-Initial.js';
import { AddIdempotencyKeys1795311316607 } from './1795311316607-AddIdempotencyKeys.js';
import { AddPointsLedger1795311316608 } from './1795311316608-AddPointsLedger.js';
import { AddResponsiblePlay1795311316609 } from './1795311316609-AddResponsiblePlay.js';

/** Every migration, in order. `npm run migration:generate` writes a file here; list its class below. */
export const MIGRATIONS = [
  Initial1795309629902,
  AddIdempotencyKeys1795311316607,
  AddPointsLedger1795311316608,
  AddResponsiblePlay1795311316609,
];

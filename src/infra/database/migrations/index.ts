import { Initial1795309629902 } from './1795309629902-Initial.js';
import { DiscountCatalogue1795311658932 } from './1795311658932-DiscountCatalogue.js';

/** Every migration, in order. `npm run migration:generate` writes a file here; list its class below. */
export const MIGRATIONS = [Initial1795309629902, DiscountCatalogue1795311658932];

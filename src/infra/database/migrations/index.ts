import { Initial1795309629902 } from './1795309629902-Initial.js';
import { DiscountCatalogue1795310410606 } from './1795310410606-DiscountCatalogue.js';

/** Every migration, in order. `npm run migration:generate` writes a file here; list its class below. */
export const MIGRATIONS = [Initial1795309629902, DiscountCatalogue1795310410606];

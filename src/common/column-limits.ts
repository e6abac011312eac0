/**
 * Bounds of the columns values are stored in, for the checks that keep a value a column cannot hold from
 * reaching it (where it would fail the statement: a 500).
 */

/** The largest PostgreSQL `integer`: counters, money in minor units, points balances. */
export const INT4_MAX = 2_147_483_647;

/** The longest e-mail address an account (`users.email`, `varchar(254)`) holds: RFC 5321's path limit. */
export const EMAIL_MAX_LENGTH = 254;

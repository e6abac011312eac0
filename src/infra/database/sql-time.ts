/**
 * A `timestamptz` expression as ISO 8601 text in UTC with milliseconds and `Z`, as `Date.toISOString()` writes
 * it: for a timestamp a statement writes into JSON itself (a history event, a milestone), which PostgreSQL
 * would write in the session's time zone form instead (`+00:00`, or `+01:00` on a server set to Europe/London
 * in summer), unlike every timestamp the service writes from JavaScript.
 */
export const isoUtc = (expression: string): string =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

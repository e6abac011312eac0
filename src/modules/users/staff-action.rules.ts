import type { ActivityEntry } from './activity-log.service.js';

/** What a staff action is recorded as: its activity type, the kind of resource, and its words. */
export interface StaffActionSpec {
  type: string;
  resource: string;
  /** "Raffle closed": the description, followed by the fields sent when there are any. */
  what: string;
}

/** The parts of a request and its answer a staff action's record is made of. */
export interface StaffRequest {
  user?: { id: string; siteId: string };
  siteId?: string;
  params: Partial<Record<string, string | string[]>>;
  body?: unknown;
}

/** Keys a body sends that name the resource rather than change it. */
const NOT_CHANGES = new Set(['site_id']);

/** How much of the description the field names may take (the column holds 500): beyond it, their count. */
const FIELDS_TEXT_MAX = 300;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A string property of an answer (its `id`, its `site_id`), when it has one. */
function answered(answer: unknown, key: 'id' | 'site_id'): string | undefined {
  const value =
    answer !== null && typeof answer === 'object' ? (answer as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The staff member's activity entry for a successful action: on their own record, for the site of what it
 * acted on (the answer's `site_id`: a superadmin may act on another site's raffle without naming it), else
 * the site the request named; naming the resource as the answer does (else by the route's `:id` or `:name`,
 * a UUID in its one spelling), and the fields the body sent (their names only: values may be secrets or
 * prices the resource itself keeps). Every name is in the metadata; the description lists them while short.
 */
export function staffActionEntry(
  spec: StaffActionSpec,
  req: StaffRequest,
  answer: unknown,
): ActivityEntry | null {
  if (!req.user) return null;
  const named = req.params.id ?? req.params.name;
  const param = typeof named === 'string' ? (UUID.test(named) ? named.toLowerCase() : named) : undefined;
  const id = answered(answer, 'id') ?? param;
  const fields =
    req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body)
      ? Object.keys(req.body)
          .filter((k) => !NOT_CHANGES.has(k))
          .sort()
      : [];
  const listed = fields.join(', ');
  const sent = listed.length > FIELDS_TEXT_MAX ? `${fields.length} fields` : listed;
  return {
    userId: req.user.id,
    siteId: answered(answer, 'site_id') ?? req.siteId ?? req.user.siteId,
    type: spec.type,
    description: fields.length ? `${spec.what}: ${sent}` : spec.what,
    resourceType: spec.resource,
    ...(id ? { resourceId: id.slice(0, 128) } : {}),
    metadata: fields.length ? { fields } : {},
  };
}

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

/**
 * The staff member's activity entry for a successful action: on their own record, for the site the request
 * acted on, naming the resource by the route's `:id` (or the id of what the answer made) and the fields the
 * body sent (their names only: values may be secrets or prices the resource itself keeps).
 */
export function staffActionEntry(
  spec: StaffActionSpec,
  req: StaffRequest,
  answer: unknown,
): ActivityEntry | null {
  if (!req.user) return null;
  const made = answer !== null && typeof answer === 'object' ? (answer as { id?: unknown }).id : undefined;
  const named = req.params.id ?? req.params.name;
  const id = typeof named === 'string' ? named : typeof made === 'string' ? made : undefined;
  const fields =
    req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body)
      ? Object.keys(req.body)
          .filter((k) => !NOT_CHANGES.has(k))
          .sort()
      : [];
  return {
    userId: req.user.id,
    siteId: req.siteId ?? req.user.siteId,
    type: spec.type,
    description: fields.length ? `${spec.what}: ${fields.join(', ')}` : spec.what,
    resourceType: spec.resource,
    ...(id ? { resourceId: id.slice(0, 128) } : {}),
    metadata: fields.length ? { fields } : {},
  };
}

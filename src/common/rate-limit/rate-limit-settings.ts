/**
 * Where the rate-limit guard reads a site's settings, for the limits a site sets itself
 * (`additional_settings.rate_limits`, DESIGN §9: "defaults, per site configurable"). A port: the sites
 * feature provides it (its cached copy of each site's settings), so the guard depends on no feature.
 */
export abstract class RateLimitSettings {
  /** The site's `additional_settings`, or null when there is no such site. */
  abstract settingsOf(siteId: string): Promise<Record<string, unknown> | null>;
}

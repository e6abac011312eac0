/**
 * A provider call that did not give a usable answer. `unavailable`: network error, timeout, 5xx or an
 * unreadable answer — the outcome is unknown and a read may be retried later. `rejected`: the provider
 * refused the request (4xx) — retrying the same request will not help.
 *
 * Messages name the provider, the operation and the status, never credentials. The HTTP status is
 * `httpStatus`, not `status`, so the global error filter cannot mistake this for a client error.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: 'unavailable' | 'rejected',
    message: string,
    readonly httpStatus?: number,
    /** The provider's own error or result code, when it gave one. */
    readonly providerCode?: string,
    /**
     * The request provably went unprocessed: it never reached the provider (connection refused, host not
     * found), or was turned away before any work (503, a redirect).
     */
    readonly unprocessed = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /**
   * Whether the provider may have acted on the request all the same (a timeout, a connection lost after
   * sending, another 5xx, an unreadable answer): a write's outcome is then unknown, and must be looked
   * up, never sent again blindly.
   */
  get mayHaveActed(): boolean {
    return this.kind === 'unavailable' && !this.unprocessed;
  }
}

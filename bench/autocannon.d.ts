/** The part of autocannon 9 (no bundled types) that the benchmarks use. */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface RequestSpec extends Request {
      /** A falsy answer restarts the connection's sequence from its first request (counted in `resets`). */
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request | undefined;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }
    interface Options {
      url: string;
      headers?: Record<string, string>;
      connections?: number;
      pipelining?: number;
      amount?: number;
      duration?: number;
      timeout?: number;
      requests?: RequestSpec[];
    }
    interface Histogram {
      average: number;
      mean: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
    }
    interface Result {
      requests: Histogram & { total: number; sent: number };
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      resets?: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  namespace autocannon {
    /** The run: its result, and its events (`response` on every answer, with its latency in ms). */
    interface Instance extends Promise<Result> {
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, latencyMs: number) => void,
      ): void;
      /** A request lost to a socket error (ECONNRESET, EPIPE…) or to the timeout; counted in `errors`. */
      on(event: 'reqError', listener: (error: Error & { code?: string }) => void): void;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}

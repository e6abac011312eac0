import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type express from 'express';

/**
 * A constructor of Node's `base` objects (a request or a response) whose prototype is `prototype` from birth.
 * Node's HTTP classes are ES5 constructors (`function IncomingMessage(socket)`), so `base` runs on the object
 * `new` made from `Born.prototype`, with the server's two arguments (socket; request and options). Should
 * Node make them classes, this throws at the first request, and the adapter's unit test fails.
 * (`Reflect.construct(base, args, Born)` does the same for classes, but measured three times slower a
 * request, and kept the promotion this is here to avoid.)
 */
function bornWith<T>(base: T, prototype: object): T {
  const construct = base as unknown as (this: object, first: unknown, second: unknown) => void;
  function Born(this: object, first: unknown, second: unknown): void {
    construct.call(this, first, second);
  }
  Born.prototype = prototype;
  return Born as unknown as T;
}

/**
 * The HTTP server makes every request and response an Express one from the start.
 *
 * Express 5 turns each `IncomingMessage` and `ServerResponse` into its own (`Object.setPrototypeOf(req,
 * app.request)` in `app.handle`). Measured with `--trace-gc-nvp`: V8 then carried the requests' objects through
 * young-generation collections into the old generation, where only a full collection frees them. Under the
 * purchase benchmark a tenth of what the app allocated (~50 KB a confirmation) was promoted, the old generation
 * grew by ~17 MB a second, and the full collections that cleared it stalled every request in flight
 * (nodejs/node#37457, expressjs/express#5998).
 * Built with Express's prototypes, the call finds the prototype already set and changes nothing. The
 * prototypes are the application's own `request` and `response`, so everything Express and Nest read from
 * them is as before; a request entering a mounted sub-application is still re-prototyped by Express there.
 */
export class AppExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS, and the options that make Nest track connections or answer 503 while closing, keep Nest's server.
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      super.initHttpServer(options);
      return;
    }
    // Express's own prototypes of this application (its types do not declare them).
    const app = this.getInstance<express.Application & { request: object; response: object }>();
    this.setHttpServer(
      createServer(
        {
          IncomingMessage: bornWith<typeof IncomingMessage>(IncomingMessage, app.request),
          ServerResponse: bornWith<typeof ServerResponse>(ServerResponse, app.response),
        },
        app,
      ),
    );
  }
}

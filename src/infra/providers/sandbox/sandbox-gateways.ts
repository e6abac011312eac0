import { Inject, Injectable } from '@nestjs/common';
import type { Router } from 'express';
import { AppConfig } from '#app/config/app-config.js';
import { FakeFulfilment } from '#app/infra/providers/fulfilment/fake/fake-fulfilment.js';
import { FakeGatewayOne } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.js';
import { FakeGatewayTwo } from '#app/infra/providers/gatewaytwo/fake/fake-gatewaytwo.js';
import { sandboxNextSteps } from './sandbox-next-steps.js';

export const SANDBOX_PATHS = {
  gatewayOne: '/sandbox/gatewayone',
  gatewayTwo: '/sandbox/gatewaytwo',
  fulfilment: '/sandbox/fulfilment',
} as const;

/**
 * `PROVIDERS=sandbox` (DESIGN §7): the same protocol fakes the tests use, mounted on the app itself so a
 * newcomer can click through a purchase without any account at a gateway. Their webhooks go to the app's
 * own webhook routes. State is in memory: one instance, gone at restart.
 */
@Injectable()
export class SandboxGateways {
  readonly gatewayOne: FakeGatewayOne;
  readonly gatewayTwo: FakeGatewayTwo;
  /** The print-on-demand provider: orders sent to it stay `InProgress` (nobody prints in a sandbox). */
  readonly fulfilment: FakeFulfilment | undefined;

  constructor(@Inject(AppConfig) config: AppConfig) {
    const { gatewayOne, gatewayTwo, publicBaseUrl, fulfilment } = config;
    if (!gatewayOne || !gatewayTwo) throw new Error('the sandbox needs both gateways configured');
    this.gatewayOne = new FakeGatewayOne({
      baseUrl: publicBaseUrl + SANDBOX_PATHS.gatewayOne,
      entityId: gatewayOne.entityId,
      accessToken: gatewayOne.accessToken,
      webhookKey: gatewayOne.webhookKey,
      webhookUrl: `${publicBaseUrl}/gatewayone/webhook`,
      nextSteps: (outcome) => sandboxNextSteps(publicBaseUrl, 'gatewayone', outcome),
    });
    this.gatewayTwo = new FakeGatewayTwo({
      baseUrl: publicBaseUrl + SANDBOX_PATHS.gatewayTwo,
      secretKey: gatewayTwo.secretKey,
      webhookSecret: gatewayTwo.webhookSecret,
      webhookUrl: `${publicBaseUrl}/gatewaytwo/webhook`,
      nextSteps: (outcome) => sandboxNextSteps(publicBaseUrl, 'gatewaytwo', outcome),
    });
    this.fulfilment = fulfilment ? new FakeFulfilment({ apiKey: fulfilment.apiKey }) : undefined;
  }

  /** Plain Express routes: outside Nest's router, guards, pipes and the OpenAPI document. */
  mount(app: { use(path: string, router: Router): unknown }): void {
    app.use(SANDBOX_PATHS.gatewayOne, this.gatewayOne.router);
    app.use(SANDBOX_PATHS.gatewayTwo, this.gatewayTwo.router);
    if (this.fulfilment) app.use(SANDBOX_PATHS.fulfilment, this.fulfilment.router);
  }
}

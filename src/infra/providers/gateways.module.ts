import { Module } from '@nestjs/common';
import { GatewayOneClient } from './gatewayone/gatewayone.client.js';
import { GatewayTwoClient } from './gatewaytwo/gatewaytwo.client.js';

/** The payment gateways' HTTP adapters (DESIGN §7), configured from `AppConfig`. */
@Module({ providers: [GatewayOneClient, GatewayTwoClient], exports: [GatewayOneClient, GatewayTwoClient] })
export class GatewaysModule {}

import { Module } from '@nestjs/common';
import { SandboxGateways } from './sandbox-gateways.js';

/** Imported only with `PROVIDERS=sandbox`; `setupApp` mounts its routes. */
@Module({ providers: [SandboxGateways], exports: [SandboxGateways] })
export class SandboxModule {}

import { Module } from '@nestjs/common';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { SandboxSite } from './sandbox-site.router.js';

/** Imported only with `PROVIDERS=sandbox`; `setupApp` mounts its pages. */
@Module({ imports: [SitesModule], providers: [SandboxSite], exports: [SandboxSite] })
export class SandboxSiteModule {}

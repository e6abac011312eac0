import { Module } from '@nestjs/common';
import { MailerModule } from '@nestjs-modules/mailer';
import { AppConfig } from '#app/config/app-config.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { defaultTransport } from './mail-transport.js';
import { MailService } from './mail.service.js';

@Module({
  imports: [
    SitesModule,
    MailerModule.forRootAsync({
      imports: [],
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ transport: defaultTransport(config) }),
    }),
  ],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}

import { Module } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { HttpMailerApi } from './http-mailer.api.js';
import { MAILER_API } from './mailer.api.js';

@Module({
  providers: [
    {
      provide: MAILER_API,
      inject: [AppConfig],
      useFactory: (c: AppConfig) => new HttpMailerApi(c.mailerBaseUrl),
    },
  ],
  exports: [MAILER_API],
})
export class MailerProviderModule {}

import { Module } from '@nestjs/common';
import { MailerModule } from '@nestjs-modules/mailer';
import { AppConfig } from '#app/config/app-config.js';
import { MailerProviderModule } from '#app/infra/providers/mailer/mailer-provider.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { defaultTransport, OUTBOX_TRANSPORTER, STREAM_TRANSPORT } from './mail-transport.js';
import { MailerDelivery } from './mailer-delivery.js';
import { MailService } from './mail.service.js';
import { OutboxController } from './outbox.controller.js';
import { OutboxService } from './outbox.service.js';
import { SmtpDelivery } from './smtp-delivery.js';

@Module({
  imports: [
    SitesModule,
    UsersModule,
    MailerProviderModule,
    MailerModule.forRootAsync({
      imports: [],
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        transport: defaultTransport(config),
        transports: { [OUTBOX_TRANSPORTER]: STREAM_TRANSPORT },
        sendTimeout: 60_000,
      }),
    }),
  ],
  controllers: [OutboxController],
  providers: [MailService, SmtpDelivery, MailerDelivery, OutboxService],
  exports: [MailService],
})
export class MailModule {}

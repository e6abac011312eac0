import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MailerService } from '@nestjs-modules/mailer';
import { AppConfig } from '#app/config/app-config.js';
import type { SiteConfig } from '#app/modules/sites/entities/site-config.entity.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { isLogTransport, OUTBOX_TRANSPORTER, siteSmtpOptions } from './mail-transport.js';
import type { MailRoute, Sender } from './mail.rules.js';
import type { MailKind, RenderedMail } from './mail.types.js';
import { STAFF_OUTBOX, writeToOutbox } from './outbox.js';

export interface SmtpMessage {
  kind: MailKind;
  siteId: string;
  to: string;
  sender: Sender;
  bcc: string | null;
  rendered: RenderedMail;
  /** A link into a staff account: the outbox keeps it out of the site's folder. */
  staffAccess?: boolean;
}

/**
 * Sends our own rendered messages through nodemailer via @nestjs-modules/mailer: the default transport,
 * the outbox, or a site's own SMTP server. A site's transporter is registered with the MailerService
 * under `site:<site_id>` and replaced when its settings change: every send compares a fingerprint of the
 * settings it just read, so each instance picks up an admin's change on its next message.
 */
@Injectable()
export class SmtpDelivery {
  /** Site id → fingerprint (a hash, never the password) of the transporter registered for it. */
  private readonly registered = new Map<string, string>();

  constructor(
    private readonly mailer: MailerService,
    private readonly sites: SitesService,
    private readonly config: AppConfig,
  ) {}

  async send(
    route: Exclude<MailRoute, 'mailer'>,
    site: SiteConfig | null,
    message: SmtpMessage,
  ): Promise<string | null> {
    const toOutbox = route === 'log' || (route === 'default' && isLogTransport(this.config));
    const transporterName =
      route === 'site-smtp' && site ? this.siteTransporter(site) : toOutbox ? OUTBOX_TRANSPORTER : undefined;
    const info = (await this.mailer.sendMail({
      transporterName,
      to: message.to,
      from: message.sender.from,
      ...(message.sender.replyTo ? { replyTo: message.sender.replyTo } : {}),
      ...(message.bcc ? { bcc: message.bcc } : {}),
      subject: message.rendered.subject,
      html: message.rendered.html,
      text: message.rendered.text,
      headers: { 'X-Mail-Kind': message.kind, 'X-Site-Id': message.siteId },
    })) as { message?: Buffer; messageId?: string };
    if (toOutbox && Buffer.isBuffer(info.message)) {
      await writeToOutbox(
        this.config.dataDir,
        message.staffAccess ? STAFF_OUTBOX : message.siteId,
        message.kind,
        info.message,
      );
    }
    return info.messageId ?? null;
  }

  private siteTransporter(site: SiteConfig): string {
    const name = `site:${site.site_id}`;
    const options = siteSmtpOptions({
      host: site.smtp_host ?? '',
      port: site.smtp_port,
      username: site.smtp_username,
      password: this.sites.readSecret(site, 'smtp_password'),
    });
    const fingerprint = createHash('sha256').update(JSON.stringify(options)).digest('hex');
    if (this.registered.get(site.site_id) !== fingerprint) {
      this.mailer.removeTransporter(name);
      this.mailer.addTransporter(name, options);
      this.registered.set(site.site_id, fingerprint);
    }
    return name;
  }
}

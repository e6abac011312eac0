import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  headers: Record<string, string>;
  /** The text/plain part, quoted-printable decoded. */
  text: string;
  /** When the message was received (ms since the epoch). */
  at: number;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A whole message (.eml) as received: headers, subject and its text part decoded. */
export function parseMail(raw: string, from = '', to: string[] = []): ReceivedMail {
  const [head] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  // The text/plain part, found by the message's own MIME boundary (a body may hold lines starting `--`).
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head.replace(/\r?\n[ \t]+/g, ' '))?.[1];
  const parts = boundary ? raw.split(`--${boundary}`) : [raw];
  const part = parts.find((p) => /Content-Type: text\/plain/i.test(p)) ?? '';
  const encoding = /Content-Transfer-Encoding: ([\w-]+)/i.exec(part)?.[1];
  const body = /\r?\n\r?\n([^]*?)(\r?\n)?$/.exec(part.replace(/^\r?\n/, ''))?.[1] ?? '';
  const text =
    encoding?.toLowerCase() === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding?.toLowerCase() === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { from, to, raw, subject: headers.subject, headers, text, at: Date.now() };
}

export interface SmtpSinkOptions {
  /** Require these credentials (AUTH PLAIN/LOGIN over plain text: loopback only). */
  auth?: { user: string; pass: string };
  /** Where to listen (default loopback). */
  host?: string;
  /** Refuse every recipient, or those the function picks (452), quoting the address as real servers do. */
  refuseRecipients?: boolean | ((address: string) => boolean);
}

/** A real SMTP server on loopback that keeps what it receives, for tests to read. */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** User names that logged in successfully. */
  readonly logins: string[] = [];
  private server?: SMTPServer;
  port = 0;

  constructor(private readonly options: SmtpSinkOptions = {}) {}

  async start(): Promise<this> {
    const auth = this.options.auth;
    this.server = new SMTPServer({
      authOptional: !auth,
      allowInsecureAuth: true,
      disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      onAuth: (login, _session, callback) => {
        if (auth && login.username === auth.user && login.password === auth.pass) {
          this.logins.push(login.username ?? '');
          callback(null, { user: login.username });
        } else callback(new Error('Invalid username or password'));
      },
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const refuse = this.options.refuseRecipients;
        if (!refuse || (typeof refuse === 'function' && !refuse(address.address))) {
          callback();
          return;
        }
        const refusal = new Error(`<${address.address}>: Recipient address rejected: mailbox full`);
        callback(Object.assign(refusal, { responseCode: 452 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const to = session.envelope.rcptTo.map((r) => r.address);
          this.messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), from, to));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, this.options.host ?? '127.0.0.1', resolve));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  /** Messages to one address (newest last). */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The token in the first link of a mail whose path ends with `path`. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://\\S+/${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in mail: ${mail.text}`);
  return match[1];
}

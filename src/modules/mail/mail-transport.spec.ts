import { siteSmtpOptions } from './mail-transport.js';

describe('a site’s SMTP options', () => {
  const site = { host: 'smtp.example.com', port: 587, username: 'shop', password: 'secret' };

  it('sends a login only over TLS: STARTTLS required on a submission port', () => {
    expect(siteSmtpOptions(site)).toMatchObject({ secure: false, requireTLS: true });
    expect(siteSmtpOptions({ ...site, port: null })).toMatchObject({ port: 587, requireTLS: true });
    expect(siteSmtpOptions({ ...site, port: 25 })).toMatchObject({ requireTLS: true });
  });

  it('speaks TLS from the start on 465', () => {
    expect(siteSmtpOptions({ ...site, port: 465 })).toMatchObject({ secure: true, requireTLS: false });
  });

  it('leaves it to the server when there is no login, or the server is this machine', () => {
    expect(siteSmtpOptions({ ...site, username: null, password: null })).toMatchObject({ requireTLS: false });
    expect(siteSmtpOptions({ ...site, host: '127.0.0.1' })).toMatchObject({ requireTLS: false });
    expect(siteSmtpOptions({ ...site, host: 'localhost' })).toMatchObject({ requireTLS: false });
  });
});

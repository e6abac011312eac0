import { hostOf, isHostName, isLoopbackHost, isPrivateAddress } from './host-policy.rules.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    // IPv4-mapped addresses as a URL spells them (`hostOf('http://[::ffff:169.254.169.254]/')`), and written out.
    '::ffff:a9fe:a9fe',
    '::ffff:7f00:1',
    '::ffff:a00:5',
    '0:0:0:0:0:ffff:a9fe:a9fe',
    '0:0:0:0:0:0:0:1',
    'fe80::1%eth0',
  ])('refuses %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it('refuses what a URL naming a mapped private address reads as', () => {
    for (const url of [
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:127.0.0.1]:8080/',
      'http://[::ffff:10.0.0.5]/',
    ])
      expect(isPrivateAddress(hostOf(url)!)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2001:4860:4860::8888',
    'mail.example.com',
    '::ffff:808:808',
  ])('allows %s', (ip) => expect(isPrivateAddress(ip)).toBe(false));
});

describe('hostOf', () => {
  it('reads the host of a URL or a bare host', () => {
    expect(hostOf('https://Shop.Example.com:8443/path')).toBe('shop.example.com');
    expect(hostOf('smtp.example.com')).toBe('smtp.example.com');
    expect(hostOf('http://[::1]:25')).toBe('::1');
    expect(hostOf('2001:DB8::25')).toBe('2001:db8::25');
    expect(hostOf('')).toBeNull();
  });
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.8.0.3',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:0:0:1',
  ])('this machine: %s', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each([
    'smtp.example.com',
    'mail.localhost',
    'localhost.example.com',
    '10.0.0.5',
    '192.0.2.2',
    '::2',
    'fd00::2',
    '128.0.0.1',
  ])('across a network: %s', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('isHostName', () => {
  it.each([
    'smtp.example.com',
    'email-smtp.eu-west-1.amazonaws.com',
    'mx',
    'localhost',
    'SMTP.Example.COM',
    '127.0.0.1',
    '::1',
    '2001:db8::25',
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
  ])('a host: %s', (host) => expect(isHostName(host)).toBe(true));

  it.each([
    'https://smtp.example.com',
    'smtp.example.com:587',
    'smtp example.com',
    ' smtp.example.com',
    'smtp.example.com.',
    '[::1]',
    '-smtp.example.com',
    'smtp-.example.com',
    'smtp..example.com',
    'smtp_relay.example.com',
    '',
    'a'.repeat(64),
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`,
  ])('not a host: %p', (value) => expect(isHostName(value)).toBe(false));
});

import { hostOf, isLoopbackHost, isPrivateAddress } from './host-policy.rules.js';

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
  ])('refuses %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', 'mail.example.com'])(
    'allows %s',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );
});

describe('hostOf', () => {
  it('reads the host of a URL or a bare host', () => {
    expect(hostOf('https://Shop.Example.com:8443/path')).toBe('shop.example.com');
    expect(hostOf('smtp.example.com')).toBe('smtp.example.com');
    expect(hostOf('http://[::1]:25')).toBe('::1');
    expect(hostOf('')).toBeNull();
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.8.0.3', '::1', '[::1]', '::ffff:127.0.0.1'])(
    'this machine: %s',
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );
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

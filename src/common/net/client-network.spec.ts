import { clientNetwork } from './client-network.js';

describe('clientNetwork', () => {
  it('counts an IPv4 client by its address, however it reached us', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, whichever address of it a request comes from', () => {
    const one = clientNetwork('2001:db8:77:1::1');
    expect(one).toBe('2001:db8:77:1::/64');
    for (const other of [
      '2001:db8:77:1::6',
      '2001:0db8:0077:0001:ffff:ffff:ffff:ffff',
      '2001:db8:77:1:a:b:c:d',
    ])
      expect(clientNetwork(other)).toBe(one);
    expect(clientNetwork('2001:db8:77:2::1')).not.toBe(one);
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('puts requests without an address in one count', () => {
    expect(clientNetwork(undefined)).toBe('unknown');
    expect(clientNetwork('')).toBe('unknown');
  });
});

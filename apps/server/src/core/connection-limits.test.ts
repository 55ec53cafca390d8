import { describe, expect, it } from 'vitest';
import { AddressCounter, addressGroup, connectionBudget, FD_RESERVE, openFileLimit } from './connection-limits.js';

describe('connection limits', () => {
  it('groups IPv4 by address and IPv6 by /64, IPv4-mapped IPv6 as IPv4', () => {
    expect(addressGroup('127.0.0.1')).toBe('127.0.0.1');
    expect(addressGroup('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe(addressGroup('2001:db8:1:2:ffff:1:2:3'));
    expect(addressGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(addressGroup('2001:db8:1:2::1'));
    expect(addressGroup('unknown')).toBe('unknown');
  });

  it('splits the open-file limit so both caps together leave the reserve', () => {
    for (const limit of [1_024, 20_000, 65_536, 1_048_576]) {
      const b = connectionBudget(limit);
      expect(b.httpMaxConnections + b.mqttMaxConnections).toBeLessThanOrEqual(limit - FD_RESERVE);
      expect(b.httpMaxConnections).toBeLessThan(b.mqttMaxConnections);
    }
    expect(connectionBudget(20_000)).toEqual({ httpMaxConnections: 4_872, mqttMaxConnections: 14_616 });
  });

  it("reads this process's open-file limit on Linux", () => {
    const limit = openFileLimit();
    if (process.platform === 'linux') expect(limit).toBeGreaterThan(0);
  });

  it('counts per group against its cap and frees on release', () => {
    const c = new AddressCounter(2);
    expect(c.tryTake('a')).toBe(true);
    expect(c.tryTake('a')).toBe(true);
    expect(c.tryTake('a')).toBe(false);
    expect(c.tryTake('b')).toBe(true);
    c.release('a');
    expect(c.count('a')).toBe(1);
    expect(c.tryTake('a')).toBe(true);
  });
});

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { blockedAddressReason, isMetadataAddress } from './address';
import { allowEntryFor, checkHop } from './hop';
import type { Resolver } from './hop';
import { AttemptLog } from './testing/servers';

const log = new AttemptLog('webfetch address rules (hostile addresses and spellings)');
afterAll(() => log.print());

/** A resolver that must never be called (IP literals are judged without a lookup). */
const noLookup: Resolver = () => Promise.reject(new Error('no lookup expected'));

describe('blockedAddressReason', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['::1', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.1.1', /link-local/],
    ['fe80::1', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.254', /carrier-grade NAT/],
    ['fc00::1', /unique-local/],
    ['fd12:3456::1', /unique-local/],
    ['224.0.0.1', /multicast/],
    ['ff02::1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['169.254.169.254', /metadata/],
    ['169.254.170.2', /ECS/],
    ['168.63.129.16', /Azure wire server/],
    ['100.100.100.200', /Alibaba/],
    ['fd00:ec2::254', /AWS metadata/],
    ['::ffff:127.0.0.1', /IPv4-mapped.*loopback/],
    ['::ffff:169.254.169.254', /IPv4-mapped.*metadata/],
    ['::ffff:8.8.8.8', /IPv4-mapped/],
    ['64:ff9b::a00:1', /NAT64/],
    ['2002:7f00:1::1', /6to4/],
    ['2001:0:4136:e378::1', /Teredo/],
    ['198.18.0.1', /benchmarking|reserved/],
    ['240.0.0.1', /reserved/],
    ['not-an-ip', /not an IP address/],
  ];
  it.each(refused)('refuses %s', (address, why) => {
    const reason = blockedAddressReason(address);
    log.record(reason !== undefined && why.test(reason));
    expect(reason).toMatch(why);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '1.1.1.1'])('lets public %s through', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });

  it('knows the metadata addresses in every form', () => {
    expect(isMetadataAddress('169.254.169.254')).toBe(true);
    expect(isMetadataAddress('::ffff:169.254.169.254')).toBe(true);
    expect(isMetadataAddress('fd00:ec2:0:0:0:0:0:254')).toBe(true);
    expect(isMetadataAddress('169.254.169.253')).toBe(false);
  });
});

describe('checkHop: odd spellings of a local address', () => {
  const spellings = [
    'http://2130706433/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://0177.0.0.1/',
    'http://127.000.000.001/',
    'http://%31%32%37.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[::1]/',
    'http://0/',
    'http://[::]/',
    'http://0xa9fea9fe/latest/meta-data/',
    'http://2852039166/',
    'http://169.254.169.254./',
    'https://10.0.0.1:8443/',
  ];
  it.each(spellings)('refuses %s without a lookup', async (url) => {
    const r = await checkHop(url, [], noLookup);
    log.record(!r.ok && r.error.code === 'blocked_address');
    expect(r.ok ? 'ok' : r.error.code).toBe('blocked_address');
  });

  it('refuses localhost (also with a trailing dot) and metadata names before any lookup', async () => {
    let lookups = 0;
    const resolve: Resolver = async () => (lookups++, [{ address: '127.0.0.1', family: 4 }]);
    for (const url of [
      'http://localhost./',
      'http://LOCALHOST/',
      'http://metadata.google.internal./',
      'http://metadata/',
    ]) {
      const r = await checkHop(url, [], resolve);
      log.record(!r.ok && r.error.code === 'blocked_address');
      expect(r.ok ? 'ok' : r.error.code).toBe('blocked_address');
    }
    expect(lookups).toBe(0);
  });

  it('refuses other schemes and URLs with credentials', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.org/', 'gopher://127.0.0.1/', 'http://u:p@example.org/']) {
      const r = await checkHop(url, [], noLookup);
      log.record(!r.ok && r.error.code === 'invalid_input');
      expect(r.ok ? 'ok' : r.error.code).toBe('invalid_input');
    }
  });
});

describe('checkHop: an injected resolver', () => {
  const answers: Record<string, string[]> = {
    'intranet.test': ['10.0.0.5'],
    'meta.test': ['169.254.169.254'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'v6.test': ['fd00::1'],
    'mapped.test': ['::ffff:10.0.0.1'],
    'cgnat.test': ['100.64.1.1'],
    'multicast.test': ['224.0.0.251'],
    'public.test': ['93.184.216.34'],
  };
  const resolve: Resolver = async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a trailing-dot name by what it resolves to', async () => {
    const r = await checkHop('http://intranet.test./', [], resolve);
    log.record(!r.ok && r.error.code === 'blocked_address');
    expect(r.ok ? 'ok' : r.error.message).toMatch(/intranet\.test resolves to 10\.0\.0\.5, a private-network address/);
  });

  it.each(Object.keys(answers).filter((h) => h !== 'public.test'))(
    'refuses %s by what it resolves to',
    async (host) => {
      const r = await checkHop(`https://${host}/x`, [], resolve);
      log.record(!r.ok && r.error.code === 'blocked_address');
      expect(r.ok ? 'ok' : r.error.message).toMatch(new RegExp(`${host} resolves to`));
    },
  );

  it('passes a public answer and keeps the addresses it checked', async () => {
    const r = await checkHop('https://public.test/docs', [], resolve);
    expect(r.ok && r.value.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('an allowed host may be private but never the metadata service by name', async () => {
    const ok = await checkHop('http://intranet.test/', ['intranet.test'], resolve);
    expect(ok.ok && ok.value.allowedByList).toBe(true);
    const meta = await checkHop('http://meta.test/', ['meta.test'], resolve);
    log.record(!meta.ok && meta.error.code === 'blocked_address');
    expect(meta.ok ? 'ok' : meta.error.code).toBe('blocked_address');
    const literal = await checkHop('http://169.254.169.254/', ['169.254.169.254'], resolve);
    expect(literal.ok).toBe(true);
  });
});

describe('allowEntryFor', () => {
  it('matches names, ports, IPv6 literals and sub-domain wildcards', () => {
    expect(allowEntryFor(['localhost:3000'], 'localhost', 3000)).toBe('localhost:3000');
    expect(allowEntryFor(['localhost:3000'], 'localhost', 3001)).toBeUndefined();
    expect(allowEntryFor(['[::1]:8080'], '::1', 8080)).toBe('[::1]:8080');
    expect(allowEntryFor(['*.corp.test'], 'wiki.corp.test', 80)).toBe('*.corp.test');
    expect(allowEntryFor(['*.corp.test'], 'corp.test', 80)).toBeUndefined();
    expect(allowEntryFor(['*.corp.test'], 'evilcorp.test', 80)).toBeUndefined();
    expect(allowEntryFor(['Intranet.Test.'], 'intranet.test', 80)).toBe('Intranet.Test.');
  });
});

/** An IPv4 address written one of the ways the WHATWG URL parser accepts: dotted decimal, hex, octal, fewer parts. */
function spell(n: number, style: number): string {
  const b = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  switch (style) {
    case 0:
      return String(n >>> 0);
    case 1:
      return `0x${(n >>> 0).toString(16)}`;
    case 2:
      return `0${(n >>> 0).toString(8)}`;
    case 3:
      return `${b[0]}.${(n & 0xffffff) >>> 0}`;
    case 4:
      return b.map((x) => `0x${(x as number).toString(16)}`).join('.');
    case 5:
      return b.map((x) => `0${(x as number).toString(8)}`).join('.');
    default:
      return `${b.join('.')}.`;
  }
}

describe('property: no spelling of a local or private IPv4 address gets through', () => {
  const ranges: [number, number][] = [
    [0x7f000000, 0xffffff], // 127/8
    [0x0a000000, 0xffffff], // 10/8
    [0xac100000, 0xfffff], // 172.16/12
    [0xc0a80000, 0xffff], // 192.168/16
    [0xa9fe0000, 0xffff], // 169.254/16
    [0x64400000, 0x3fffff], // 100.64/10
    [0xe0000000, 0xfffffff], // 224/4
    [0x00000000, 0xffffff], // 0/8
  ];
  it('holds for every range and style', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: ranges.length - 1 }),
        fc.nat(),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        async (r, offset, style, mapped) => {
          const [start, size] = ranges[r] as [number, number];
          const n = (start + (offset % (size + 1))) >>> 0;
          const dotted = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
          const host = mapped ? `[::ffff:${dotted}]` : spell(n, style);
          const result = await checkHop(`http://${host}:8080/x`, [], noLookup);
          const held = !result.ok && result.error.code === 'blocked_address';
          log.record(held);
          return held;
        },
      ),
      { numRuns: 500 },
    );
  });
});

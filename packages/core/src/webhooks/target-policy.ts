/**
 * Where the server may send a webhook. A webhook's URL is chosen by whoever
 * may edit webhooks (the admin panel, `tessera webhooks`), and the server
 * then POSTs to it from inside the network, with the webhook's own headers:
 * pointed at a cloud provider's metadata service, that is a way to read the
 * instance's credentials. So some targets are always refused:
 *
 * - link-local addresses, 169.254.0.0/16 and fe80::/10 (AWS, GCP and Azure
 *   answer their metadata at 169.254.169.254);
 * - the other metadata addresses: 100.100.100.200 (Alibaba), fd00:ec2::254
 *   (AWS over IPv6), 168.63.129.16 (Azure's host endpoint).
 *
 * `server.webhooks.refusePrivateAddresses: true` also refuses loopback
 * (127.0.0.0/8, ::1, 0.0.0.0/8, ::), private ranges (10/8, 172.16/12,
 * 192.168/16, fc00::/7) and shared address space (100.64/10). It is off by
 * default: a receiver on the same host or network is common.
 *
 * A host name is refused when any address it resolves to is: the check runs
 * when a webhook is saved (so the author learns of it), and at each attempt
 * on the addresses the connection itself looks up (post.ts), since a name can
 * be re-pointed after it was saved, or between a check and a connect.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface TargetPolicy {
  /** Also refuse loopback and private addresses. */
  refusePrivate: boolean;
}

/** How a host name resolves: every address (IPv4 and IPv6). Replaceable in tests of the rule itself. */
export type Resolver = (host: string) => Promise<string[]>;

const ALWAYS = new BlockList();
ALWAYS.addSubnet('169.254.0.0', 16, 'ipv4');
ALWAYS.addSubnet('fe80::', 10, 'ipv6');
ALWAYS.addAddress('100.100.100.200', 'ipv4');
ALWAYS.addAddress('168.63.129.16', 'ipv4');
ALWAYS.addAddress('fd00:ec2::254', 'ipv6');

const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

const resolveAll: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Why this address may not be called, or null. IPv4-mapped IPv6 (`::ffff:169.254.169.254`) is judged as IPv4. */
export function addressRefusal(address: string, policy: TargetPolicy): string | null {
  const plain = unmapped(address);
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  if (ALWAYS.check(plain, family)) return `${address} is a link-local or cloud metadata address`;
  if (policy.refusePrivate && PRIVATE.check(plain, family)) return `${address} is a loopback or private address (server.webhooks.refusePrivateAddresses)`;
  return null;
}

/**
 * Why the server may not POST to `url`, or null. A name that does not resolve now is not refused here: the attempt
 * itself will fail, and it is checked again before each one.
 */
export async function targetRefusal(url: string, policy: TargetPolicy, resolve: Resolver = resolveAll): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return 'not a URL';
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (isIP(host) !== 0) return addressRefusal(host, policy);
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return null;
  }
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return `${host} resolves to ${refusal}`;
  }
  return null;
}

function unmapped(address: string): string {
  const lower = address.toLowerCase();
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  // `new URL('http://[::ffff:169.254.169.254]')` spells it in hex: ::ffff:a9fe:a9fe.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return address;
}

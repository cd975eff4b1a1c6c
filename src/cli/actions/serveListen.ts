/**
 * Whether `serve` can listen on `--host`, and the words when it cannot: one rule and one text for the real
 * start (the error listening gave) and for `--check`, which checks what it can without listening. It looks
 * the host up as listening does (net.Server.listen: dns.lookup, default options, the first address), then
 * asks whether that address is one of this machine's (os.networkInterfaces): a wildcard (0.0.0.0, ::), an
 * interface's own address, or an address in a loopback interface's IPv4 range (Linux listens on all of
 * 127.0.0.0/8). A name is resolved by the system's resolver as the real start resolves it: /etc/hosts
 * answers at once; a name only DNS knows is as good as the resolver is at the time of the check.
 */
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { listenProblem, type ListenPlace } from '../../serve/listenProblem.js';

/** Where serve takes the address from: its flags (startServer names its options: serve/listenProblem.ts, the one message). */
export const SERVE_FLAGS_PLACE: ListenPlace = { file: '<command line>', host: '--host', port: '--port' };

/** An IPv4 address as a 32-bit number. */
function ipv4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

/** An address as compared: an IPv4-mapped IPv6 address as its IPv4 one, IPv6 without its zone and in its shortest form. */
function normalAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/%.*$/, '');
  return isIPv6(bare) ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : bare;
}

/** Whether IPv4 `address` is in the range of interface address `own` (its netmask). */
function inRange(address: string, own: NetworkInterfaceInfo): boolean {
  const mask = ipv4Number(own.netmask);
  return ((ipv4Number(address) & mask) >>> 0) === ((ipv4Number(own.address) & mask) >>> 0);
}

/** An IPv6 address the system refuses to listen on whatever its interfaces (EINVAL): link-local without its zone, multicast. */
function refusedAsWritten(address: string): boolean {
  return isIPv6(address.replace(/%.*$/, '')) && ((/^fe[89ab]/i.test(address) && !address.includes('%')) || /^ff/i.test(address));
}

/** Whether `address` (an IP literal) can be listened on by this machine, given its interfaces. */
export function isOwnAddress(address: string, interfaces: readonly NetworkInterfaceInfo[]): boolean {
  const wanted = normalAddress(address);
  if (wanted === '0.0.0.0' || wanted === '::') return true;
  return interfaces.some((own) => normalAddress(own.address) === wanted || (own.internal && own.family === 'IPv4' && isIPv4(wanted) && inRange(wanted, own)));
}

/** The ways the check reaches the system: injected by tests, the machine's own by default. */
export interface ListenProbe {
  lookup(host: string): Promise<string>;
  interfaces(): NetworkInterfaceInfo[];
}

const SYSTEM: ListenProbe = {
  lookup: async (host) => (await lookup(host)).address,
  interfaces: () => Object.values(networkInterfaces()).flatMap((list) => list ?? []),
};

/**
 * Refuses, as the real start would (serve/listenProblem.ts, the same words), a host that cannot be looked up or whose
 * address is not this machine's; nothing listens. An error of the lookup that is not the user's is thrown as it is.
 */
export async function checkListenHost(at: { host: string; port: number }, probe: ListenProbe = SYSTEM): Promise<void> {
  let address: string;
  try {
    address = await probe.lookup(at.host);
  } catch (error) {
    throw listenProblem(error, at, SERVE_FLAGS_PLACE) ?? error;
  }
  const code = refusedAsWritten(address) ? 'EINVAL' : isOwnAddress(address, probe.interfaces()) ? undefined : 'EADDRNOTAVAIL';
  if (code !== undefined) throw listenProblem(Object.assign(new Error(`cannot listen on ${address}`), { code }), at, SERVE_FLAGS_PLACE)!;
}

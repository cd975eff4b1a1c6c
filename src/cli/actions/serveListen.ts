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
import { UserError } from '../../errors.js';
import { errorCode, knownErrorWords } from '../../io/fileErrorWords.js';

/**
 * The flag to change, and what to do, for each error of listening said to the user (its words: io/fileErrorWords.ts,
 * but EINVAL's, which on a file means something else).
 */
const LISTEN_ERRORS: Readonly<Record<string, { field: '--port' | '--host'; hint: string; words?: string }>> = {
  EADDRINUSE: { field: '--port', hint: 'choose another --port, or 0 for any free one' },
  EACCES: { field: '--port', hint: 'a port below 1024 needs the rights of root: choose another --port, or 0 for any free one' },
  EADDRNOTAVAIL: { field: '--host', hint: 'give an address of this machine: 127.0.0.1 (this machine only), or 0.0.0.0 (every interface)' },
  ENOTFOUND: { field: '--host', hint: 'check the name, or give an address: 127.0.0.1, or 0.0.0.0' },
  EAI_AGAIN: { field: '--host', hint: 'check the name, or give an address: 127.0.0.1, or 0.0.0.0' },
  EINVAL: {
    field: '--host',
    words: 'the system takes no connections on that address as written (a link-local IPv6 address, fe80::…, needs its interface after a %: fe80::1%eth0; a multicast address takes none)',
    hint: 'give an address of this machine: 127.0.0.1 (this machine only), or 0.0.0.0 (every interface)',
  },
};

/** `cannot listen on H:P: the address is in use …`, naming the flag; undefined for an error that is not the user's. */
export function listenProblem(error: unknown, at: { host: string; port: number }): UserError | undefined {
  const code = errorCode(error);
  const known = code === undefined ? undefined : LISTEN_ERRORS[code];
  const words = known?.words ?? knownErrorWords(error);
  if (known === undefined || words === undefined) return undefined;
  return new UserError({ file: '<command line>', field: known.field, code: 'bad_value', message: `cannot listen on ${at.host}:${at.port}: ${words}`, hint: known.hint });
}

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
 * Refuses, as the real start would (listenProblem, the same words), a host that cannot be looked up or whose
 * address is not this machine's; nothing listens. An error of the lookup that is not the user's is thrown as it is.
 */
export async function checkListenHost(at: { host: string; port: number }, probe: ListenProbe = SYSTEM): Promise<void> {
  let address: string;
  try {
    address = await probe.lookup(at.host);
  } catch (error) {
    throw listenProblem(error, at) ?? error;
  }
  const code = refusedAsWritten(address) ? 'EINVAL' : isOwnAddress(address, probe.interfaces()) ? undefined : 'EADDRNOTAVAIL';
  if (code !== undefined) throw listenProblem(Object.assign(new Error(`cannot listen on ${address}`), { code }), at)!;
}

/**
 * `serve --check` passed a `--host` the server cannot listen on (`not a host!!`, `8.8.8.8`: exit 0, "would
 * answer … on not a host!!:8787"). It now refuses what it can know without listening, in the real start's
 * words: a host that is neither an IP address nor a host name (both refuse it before reading anything; so
 * does startServer), a host that cannot be looked up, an address that is not one of this machine's.
 * Two scenario files were said to be "traces or one scenario file, not both": now one scenario file.
 */
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { checkListenHost, isOwnAddress, type ListenProbe } from '../../src/cli/actions/serveListen.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadTraceFile } from '../../src/import/index.js';
import { startServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli } from '../cli/run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
const OWN = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
/** Documentation addresses (RFC 5737): the first that is not this machine's. */
const FOREIGN = ['198.51.100.7', '203.0.113.9', '192.0.2.201'].find((address) => !OWN.some((own) => own.address === address))!;

const iface = (address: string, netmask: string, internal = false) => ({ address, netmask, internal, family: address.includes(':') ? 'IPv6' : 'IPv4', mac: '00:00:00:00:00:00', cidr: null }) as never;
const MACHINE = [iface('127.0.0.1', '255.0.0.0', true), iface('::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true), iface('10.1.2.3', '255.255.255.0'), iface('fe80::fc:ff:fe00:1', 'ffff:ffff:ffff:ffff::')];

describe('serve --check: a host the server cannot listen on is refused as the real start refuses it', () => {
  it("an address not this machine's: exit 2, the real start's words", async () => {
    const checked = await cli('serve', TRACE, '--check', '--host', FOREIGN, '--port', '0');
    const started = await cli('serve', TRACE, '--host', FOREIGN, '--port', '0');
    expect(checked.code).toBe(2);
    expect(checked.stdout).toBe('');
    expect(checked.stderr).toBe(started.stderr);
    expect(checked.stderr).toBe(
      `loopcost: <command line> field '--host': cannot listen on ${FOREIGN}:0: the address is not one of this machine's (give an address of this machine: 127.0.0.1 (this machine only), or 0.0.0.0 (every interface))\n(run 'loopcost serve --help' for usage)\n`,
    );
  });

  it('a link-local IPv6 address without its interface: the real start said "internal error" with a stack; both now say why, alike', async () => {
    const checked = await cli('serve', TRACE, '--check', '--host', 'fe80::1', '--port', '0');
    const started = await cli('serve', TRACE, '--host', 'fe80::1', '--port', '0');
    expect(checked.code).toBe(2);
    expect(started.code).toBe(2);
    expect(checked.stderr).toBe(started.stderr);
    expect(checked.stderr).toMatch(/^loopcost: <command line> field '--host': cannot listen on fe80::1:0: the system takes no connections on that address as written \(a link-local IPv6 address, fe80::…, needs its interface after a %/);
    expect(started.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('text that is neither an IP address nor a host name: refused before anything is read, with or without --check', async () => {
    for (const argv of [['--check'], ['--port', '0']]) {
      const r = await cli('serve', 'no-such-file.jsonl', '--host', 'not a host!!', ...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^loopcost: <command line> field '--host': 'not a host!!' is neither an IP address nor a host name \(name the address to listen on: 127\.0\.0\.1/);
      expect(r.stderr).not.toMatch(/no-such-file/);
    }
  });

  it('startServer refuses it too, by the same rule', async () => {
    const traces = (await loadTraceFile(TRACE)) as Trace[];
    const error = await startServer({ sources: { traces }, prices: loadPriceTable(), host: 'not a host!!', port: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues[0]).toMatchObject({ field: 'host', message: '"not a host!!" is neither an IP address nor a host name' });
  });

  it('hosts it can listen on pass: the default, a wildcard, localhost (looked up), a loopback address', async () => {
    for (const host of ['127.0.0.1', '0.0.0.0', 'localhost', ...(OWN.some((own) => own.address === '::1') ? ['::1'] : [])]) {
      const r = await cli('serve', TRACE, '--check', '--host', host, '--port', '0');
      expect(r.stderr, host).toBe('');
      expect(r.code, host).toBe(0);
      expect(r.stdout).toContain(` on ${host}:0\n`);
    }
  });
});

describe('checkListenHost: the lookup, then the address', () => {
  const probe = (lookup: ListenProbe['lookup']): ListenProbe => ({ lookup, interfaces: () => MACHINE });
  const failing = (code: string) => probe(() => Promise.reject(Object.assign(new Error(code), { code })));
  const refusal = (promise: Promise<void>) => promise.then(() => undefined, (error: unknown) => error);

  it('a name no lookup finds, or one the name server does not answer for, in the listen words', async () => {
    const notFound = (await refusal(checkListenHost({ host: 'nowhere.invalid', port: 8787 }, failing('ENOTFOUND')))) as UserError;
    expect(notFound.issues[0]).toMatchObject({ field: '--host', message: 'cannot listen on nowhere.invalid:8787: no host of that name was found' });
    const noAnswer = (await refusal(checkListenHost({ host: 'slow.example', port: 1 }, failing('EAI_AGAIN')))) as UserError;
    expect(noAnswer.issues[0]!.message).toBe('cannot listen on slow.example:1: the host name could not be looked up (the name server did not answer)');
  });

  it('a name that resolves to an address not this machine\'s is refused; to one of its own, passes', async () => {
    const away = (await refusal(checkListenHost({ host: 'db.internal', port: 9 }, probe(async () => '10.9.9.9')))) as UserError;
    expect(away.issues[0]).toMatchObject({ field: '--host', message: "cannot listen on db.internal:9: the address is not one of this machine's" });
    expect(await refusal(checkListenHost({ host: 'me.internal', port: 9 }, probe(async () => '10.1.2.3')))).toBeUndefined();
  });

  it('an IPv6 multicast address, or a link-local one without its zone: refused as listening refuses it (EINVAL); with its zone, an interface\'s own', async () => {
    const lookup = (address: string) => probe(async () => address);
    for (const address of ['ff02::1', 'fe80::fc:ff:fe00:1']) {
      const error = (await refusal(checkListenHost({ host: address, port: 9 }, lookup(address)))) as UserError;
      expect(error.issues[0]!.message, address).toMatch(/the system takes no connections on that address as written/);
    }
    expect(await refusal(checkListenHost({ host: 'fe80::fc:ff:fe00:1%eth0', port: 9 }, lookup('fe80::fc:ff:fe00:1%eth0')))).toBeUndefined();
  });

  it('an error of the lookup that is not the user\'s is thrown as it is', async () => {
    const odd = await refusal(checkListenHost({ host: 'x', port: 9 }, failing('EWHATEVER')));
    expect(odd).not.toBeInstanceOf(UserError);
    expect((odd as Error).message).toBe('EWHATEVER');
  });

  it("isOwnAddress: wildcards, interface addresses in any spelling, a loopback interface's IPv4 range", () => {
    const own = ['0.0.0.0', '::', '127.0.0.1', '127.0.0.2', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '10.1.2.3', 'fe80::fc:ff:fe00:1%eth0', 'FE80::FC:FF:FE00:1'];
    const foreign = ['10.1.2.4', '8.8.8.8', '::2', 'fe80::1', '128.0.0.1', '::ffff:8.8.8.8'];
    for (const address of own) expect(isOwnAddress(address, MACHINE), address).toBe(true);
    for (const address of foreign) expect(isOwnAddress(address, MACHINE), address).toBe(false);
  });
});

describe('serve: two scenario files', () => {
  it('says only one scenario file is served, names them, and what to do', async () => {
    const r = await cli('serve', 'scenarios/keeps-asking.yaml', 'scenarios/flight-search.yaml', '--check');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "loopcost: <command line> field '<inputs>': serve answers from one scenario file; 2 were given (scenarios/keeps-asking.yaml, scenarios/flight-search.yaml) (start one server per scenario file, each on its own --port)\n(run 'loopcost serve --help' for usage)\n",
    );
  });

  it('traces with a scenario file: still one or the other', async () => {
    const r = await cli('serve', TRACE, 'scenarios/keeps-asking.yaml', '--check');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/serve answers from recorded traces or from one scenario file, not both \(start one server for the traces and one for the scenario file, each on its own --port\)/);
  });
});

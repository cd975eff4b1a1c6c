/**
 * `serve` that cannot listen said the raw code (`cannot listen on 127.0.0.1:P (EADDRINUSE)`): it now says
 * why in words, from the one table of error-code words (io/fileErrorWords.ts), naming the flag to change
 * and what to give instead; exit 2, no stack trace.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileErrorWords, knownErrorWords } from '../../src/io/fileErrorWords.js';
import { cli } from '../cli/run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
let taken: Server;
let port: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

describe('serve: an address it cannot listen on, in words', () => {
  it('a port in use: the flag, the words, what to do', async () => {
    const r = await cli('serve', TRACE, '--port', String(port));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `loopcost: <command line> field '--port': cannot listen on 127.0.0.1:${port}: the address is in use (another process listens on that port) (choose another --port, or 0 for any free one)\n(run 'loopcost serve --help' for usage)\n`,
    );
    expect(r.stderr).not.toMatch(/EADDRINUSE/);
  });

  it("an address not this machine's names --host", async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const r = await cli('serve', TRACE, '--host', '192.0.2.1', '--port', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--host': cannot listen on 192\.0\.2\.1:0: the address is not one of this machine's \(give an address of this machine: 127\.0\.0\.1/);
    expect(r.stderr).not.toMatch(/EADDRNOTAVAIL|\n\s+at /);
  });

  it('the words come from the one table, which the file messages read too', () => {
    expect(knownErrorWords(Object.assign(new Error('x'), { code: 'EADDRINUSE' }))).toBe('the address is in use (another process listens on that port)');
    expect(fileErrorWords(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('permission denied');
    expect(knownErrorWords(Object.assign(new Error('x'), { code: 'EWHATEVER' }))).toBeUndefined();
  });
});

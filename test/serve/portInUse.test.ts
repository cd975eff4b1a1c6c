/**
 * startServer on a port in use threw Node's raw `Error: listen EADDRINUSE: address already in use`, where
 * `loopcost serve` said it in words with what to do. The library now throws the same UserError (one message,
 * serve/listenProblem.ts), naming its own option (`port`) where the command line names its flag (`--port`).
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cli } from '../cli/run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
let taken: Server;
let port: number;
let traces: Trace[];

beforeAll(async () => {
  traces = (await loadTraceFile(TRACE)) as Trace[];
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

/** What startServer throws for `port` (fails the test if it listens). */
async function startError(at: number): Promise<unknown> {
  let server: RunningServer | undefined;
  try {
    server = await startServer({ sources: { traces }, prices: loadPriceTable(), port: at });
  } catch (error) {
    return error;
  }
  await server.close();
  throw new Error(`startServer listened on ${at}, a port in use`);
}

describe('startServer on a port in use', () => {
  it('throws a UserError naming its port option, in words, with what to do', async () => {
    const error = await startError(port);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toBe(
      `<startServer options> field 'port': cannot listen on 127.0.0.1:${port}: the address is in use (another process listens on that port) (choose another port, or 0 for any free one)`,
    );
    expect((error as UserError).issues).toEqual([expect.objectContaining({ file: '<startServer options>', field: 'port', code: 'bad_value' })]);
    expect((error as UserError).message).not.toMatch(/EADDRINUSE/);
  });

  it("serve says the same words, naming its flag: one message for both", async () => {
    const error = (await startError(port)) as UserError;
    const r = await cli('serve', TRACE, '--port', String(port));
    expect(r.code).toBe(2);
    const words = error.issues[0]!.message;
    expect(r.stderr).toBe(`loopcost: <command line> field '--port': ${words} (choose another --port, or 0 for any free one)\n(run 'loopcost serve --help' for usage)\n`);
  });
});

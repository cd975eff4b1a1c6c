/** Test doubles of the network shared by the real loop's tests: a port nothing listens on, and rejections left unhandled. */
import { createServer } from 'node:net';
import { afterEach, beforeEach } from 'vitest';

/** A port nothing listens on: one the system gave, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The rejections Node reports unhandled during each test of the calling file (listened for around each test; `reasons` emptied before each). */
export function unhandledRejections(): { reasons: unknown[] } {
  const seen = { reasons: [] as unknown[] };
  const onUnhandled = (reason: unknown) => void seen.reasons.push(reason);
  beforeEach(() => {
    seen.reasons = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => void process.off('unhandledRejection', onUnhandled));
  return seen;
}

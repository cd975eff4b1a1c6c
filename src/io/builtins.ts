/**
 * Node's built-in modules that most commands never use, required on first use instead of at start-up:
 * a static import of each is loaded (and compiled) by every start that loads the importing module, ~1–5 ms
 * apiece (`loopcost replay scenarios/` hashes, inflates and spawns nothing). Types come from the modules.
 */
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';
import type * as Net from 'node:net';
import type * as Tty from 'node:tty';
import type * as WorkerThreads from 'node:worker_threads';
import type * as Zlib from 'node:zlib';

const requireBuiltin = createRequire(import.meta.url);

let crypto: typeof Crypto | undefined;
let net: typeof Net | undefined;
let tty: typeof Tty | undefined;
let workerThreads: typeof WorkerThreads | undefined;
let zlib: typeof Zlib | undefined;

export const nodeCrypto = (): typeof Crypto => (crypto ??= requireBuiltin('node:crypto') as typeof Crypto);
export const nodeNet = (): typeof Net => (net ??= requireBuiltin('node:net') as typeof Net);
export const nodeTty = (): typeof Tty => (tty ??= requireBuiltin('node:tty') as typeof Tty);
export const nodeWorkerThreads = (): typeof WorkerThreads => (workerThreads ??= requireBuiltin('node:worker_threads') as typeof WorkerThreads);
export const nodeZlib = (): typeof Zlib => (zlib ??= requireBuiltin('node:zlib') as typeof Zlib);

/** sha256 of `data` (a string is hashed as UTF-8), as 64 hex digits. */
export const sha256Hex = (data: string | Uint8Array): string => nodeCrypto().createHash('sha256').update(data).digest('hex');

/**
 * The genai-prices package's own provider data, read synchronously: the fallback of genaiData.ts when the
 * build's copy is missing or was made from another package file. The package gives its data only through
 * a promise (`waitForUpdate()`), and a module that awaited it at load would be an async ES module, which
 * `require('loopcost')` refuses (ERR_REQUIRE_ASYNC_MODULE). So a worker thread imports the package and
 * posts the data back while this thread waits on a shared flag (Atomics.wait): ~100–300 ms, paid only where
 * the copy cannot be used (the tarball ships one). The data comes back by structured clone, which loses
 * nothing of JSON-like data (the copy the build writes is JSON of the same data: test/pricing/genaiMatch.test.ts).
 */
import { nodeWorkerThreads } from '../io/builtins.js';
import type { Provider } from '@pydantic/genai-prices';

/** How long the worker may take before the read is given up as broken (a hung import, not a slow one). */
const READ_TIMEOUT_MS = 60_000;

/** The worker: imports the package's ES module entry (its file URL), posts `waitForUpdate()`'s data or the error, then raises the flag. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag, url } = workerData;
const done = (message) => { port.postMessage(message); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
import(url)
  .then((module) => module.waitForUpdate())
  .then((providers) => done({ providers: providers ?? [] }), (error) => done({ error: String(error && error.stack || error) }));
`;

/** The providers of the package whose ES module entry is at `entryUrl` (a file: URL), read in a worker; throws what the worker could not do. */
export function packageProvidersSync(entryUrl: string): Provider[] {
  const { MessageChannel, receiveMessageOnPort, Worker } = nodeWorkerThreads();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, flag, url: entryUrl }, transferList: [port2] });
  worker.unref();
  try {
    const waited = Atomics.wait(flag, 0, 0, READ_TIMEOUT_MS);
    const message = receiveMessageOnPort(port1)?.message as { providers?: Provider[]; error?: string } | undefined;
    if (message?.providers !== undefined) return message.providers;
    throw new Error(`could not read the provider data of ${entryUrl}: ${message?.error ?? (waited === 'timed-out' ? `no answer in ${READ_TIMEOUT_MS} ms` : 'no answer')}`);
  } finally {
    port1.close();
    void worker.terminate();
  }
}

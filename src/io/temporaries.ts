/**
 * Temporary outputs being written by this process. While there is one, SIGINT, SIGTERM and SIGHUP remove
 * them all and then end the process as the signal would have; so does a normal exit. (A process killed
 * outright leaves them: the next run that writes the same target removes them, see atomicWrite.ts.)
 */
import { rmSync } from 'node:fs';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const live = new Set<string>();

function removeAll(): void {
  for (const path of live) rmSync(path, { force: true, recursive: true });
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  uninstall();
  // With our handler gone, the signal's default action ends the process with the usual status.
  process.kill(process.pid, signal);
}

function install(): void {
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('exit', removeAll);
}

function uninstall(): void {
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  process.removeListener('exit', removeAll);
}

/** Registers a temporary path (removed on a signal or exit until released); returns it. */
export function trackTemporary(path: string): string {
  if (live.size === 0) install();
  live.add(path);
  return path;
}

/** The temporary is gone (renamed into place or removed): no longer watched. */
export function releaseTemporary(path: string): void {
  if (!live.delete(path)) return;
  if (live.size === 0) uninstall();
}

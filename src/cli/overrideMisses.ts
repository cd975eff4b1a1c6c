/**
 * What a command's `--prices-override` tables have to say once the command is done: a warning on stderr
 * for each override entry that matched no run's model (pricing/overrideMisses.ts). priceOptionsFromFlags
 * watches every table it has loaded; main.ts says the lines after the command, so every command that takes
 * the flag says them the same way. Light (a start-up module: no pricing code), and held on globalThis so
 * that the command line's bundle and the actions' share one list. A sweep's worker threads load tables of
 * their own: only the main thread's are watched.
 */
import { isMainThread } from 'node:worker_threads';
import type { CliIO } from './io.js';

/** A watched table's lines, for whose models (`run's model`, `model asked for`). */
export type OverrideMisses = (asker: string) => string[];

const KEY = Symbol.for('loopcost.overrideMisses');

function watched(): OverrideMisses[] {
  const holder = globalThis as { [KEY]?: OverrideMisses[] };
  return (holder[KEY] ??= []);
}

/** Keeps a loaded table's lines, to say them once the command is done. */
export function watchOverrides(misses: OverrideMisses): void {
  if (isMainThread) watched().push(misses);
}

/** Forgets the tables watched (a command that failed says nothing of them). */
export function forgetOverrides(): void {
  watched().length = 0;
}

/** Says each unmatched override entry of the tables watched, once (`prices MODEL`: the model asked for is no run's). */
export function sayOverrideMisses(io: CliIO, command: string | undefined): void {
  const asker = command === 'prices' ? 'model asked for' : "run's model";
  const lines = new Set(watched().flatMap((misses) => misses(asker)));
  forgetOverrides();
  for (const line of lines) io.stderr(`loopcost: warning: ${line}\n`);
}

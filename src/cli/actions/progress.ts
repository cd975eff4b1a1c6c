/**
 * Progress of a long job on stderr — done / total, rate, time left — drawn by cli-progress, only when
 * stderr is a terminal (never in piped or redirected output, which stays byte-identical). The shell, not
 * the core: it reads the clock.
 */
import cliProgress from 'cli-progress';
import type { CliIO } from '../io.js';

/** What cli-progress writes to: the CLI's stderr, seen as a terminal (it is only built when stderr is one). */
function stderrStream(io: CliIO): NodeJS.WritableStream & { isTTY: true } {
  return { isTTY: true, write: (text: string) => (io.stderr(text), true) } as unknown as NodeJS.WritableStream & { isTTY: true };
}

export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private readonly bar: cliProgress.SingleBar | undefined;

  constructor(io: CliIO, private readonly total: number, what: string) {
    if (io.stderrIsTerminal !== true || total <= 0) return;
    this.bar = new cliProgress.SingleBar({
      stream: stderrStream(io),
      format: `${what}: {value}/{total} ({rate}/s, {eta}s left) {bar}`,
      barsize: 20,
      hideCursor: false,
      gracefulExit: false,
      synchronousUpdate: true,
      fps: 10,
      etaBuffer: 50,
    });
    this.bar.start(total, 0, { rate: '0.0' });
  }

  /** `count` more items done; redrawn at most ten times a second, and at the end (which ends the line). */
  add(count: number): void {
    this.done += count;
    if (this.bar === undefined) return;
    const seconds = Math.max((Date.now() - this.started) / 1000, 1e-3);
    this.bar.update(this.done, { rate: (this.done / seconds).toFixed(1) });
    if (this.done >= this.total) this.finish();
  }

  /** Stops drawing (its timer too): call when the job ends, done or failed. */
  finish(): void {
    this.bar?.stop();
  }
}

/**
 * Progress of a long job on stderr — done / total, rate, time left — only when stderr is a terminal
 * (never in piped or redirected output, which stays byte-identical). The shell, not the core: it reads
 * the clock.
 */
import type { CliIO } from '../io.js';

export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDrawn = 0;
  constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly what: string,
  ) {}

  private get shown(): boolean {
    return this.io.stderrIsTerminal === true && this.total > 0;
  }

  /** `count` more items done; redrawn at most ten times a second, and at the end. */
  add(count: number): void {
    this.done += count;
    if (!this.shown) return;
    const now = Date.now();
    if (now - this.lastDrawn < 100 && this.done < this.total) return;
    this.lastDrawn = now;
    const seconds = Math.max((now - this.started) / 1000, 1e-3);
    const rate = this.done / seconds;
    const left = rate > 0 ? Math.ceil((this.total - this.done) / rate) : 0;
    this.io.stderr(`\r${this.what}: ${this.done}/${this.total} (${rate.toFixed(1)}/s, ${left} s left)\u001b[K${this.done >= this.total ? '\n' : ''}`);
  }
}

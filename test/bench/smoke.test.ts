// The benchmarks (bench/*.mjs, `npm run bench`) are no test's: a script could break unseen (one passed a
// budget the library had come to refuse). `node bench/run.mjs --smoke --json` runs every script's code
// path once on tiny inputs (bench/lib/smoke.mjs); here it must end in exit 0 with every part's JSON.
// No timing is asserted: the figures of a smoke run mean nothing. Runs bench/ on dist/ (built first).
// The benches run in a few lanes at once, each lane one `bench/run.mjs --smoke --json --only=<a>,<b>,…`
// (run.mjs runs its benches one after another, each in its own process, so the parts are the same as one
// run.mjs for all, without a run.mjs start for each bench); that run.mjs lists exactly these benches is read
// from its BENCHES table.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Each bench (bench/run.mjs's names) and fields its JSON must hold, the longest smoke runs first (dealt to
 * the lanes in turn, so that each lane gets one of the longest and the lanes end about together).
 */
const FIELDS: Record<string, string[]> = {
  cache: ['inputMb', 'runs', 'noCache', 'coldCache', 'warmCache', 'warmFirstRun', 'compiled', 'smallRuns'],
  hostileMemory: ['cases'],
  workers: ['runs16'],
  serveSessionsMemory: ['sessions', 'cases'],
  read: ['native', 'miniSweAgent'],
  kernel: ['replay', 'sweep'],
  render: ['renderRows', 'replayMs', 'tableMs', 'csvMs', 'jsonMs', 'cliTable3Ms'],
  replayFast: ['longTrace'],
  startup: ['startupHelpMs', 'startupVersionMs', 'replayScenariosMs', 'bareNodeMs'],
  sweep: ['grid', 'nominalEvaluations', 'sweepCompiledEvaluationsPerSec', 'sweepHoistedEvaluationsPerSec', 'sweepCpuMs', 'readEveryCellCpuMs'],
  replayLinear: ['readableLoop'],
  importMemory: ['builds', 'peakGrowth'],
  nativeStreamMemory: ['builds', 'peakGrowth'],
};

/** `node bench/run.mjs --smoke --json --only=<benches>`: its exit status, its JSON report and its standard error. */
function smokeRun(benches: string[]): Promise<{ benches: string[]; status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['bench/run.mjs', '--smoke', '--json', `--only=${benches.join(',')}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill(), 150_000);
    child.on('error', fail).on('close', (status) => {
      clearTimeout(timer);
      done({ benches, status, stdout, stderr });
    });
  });
}

/** The benches dealt to `lanes` lanes in turn, back and forth (the first and last lane each get one of the longest). */
export function lanesOf(benches: readonly string[], lanes: number): string[][] {
  const out: string[][] = Array.from({ length: Math.min(lanes, benches.length) }, () => []);
  benches.forEach((bench, i) => {
    const round = Math.floor(i / out.length);
    const at = i % out.length;
    out[round % 2 === 0 ? at : out.length - 1 - at]!.push(bench);
  });
  return out;
}

describe('bench smoke run', () => {
  it('run.mjs runs exactly these benchmarks', () => {
    const table = /const BENCHES = \{([^}]*)\}/.exec(readFileSync('bench/run.mjs', 'utf8'))?.[1] ?? '';
    expect([...table.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]).sort()).toEqual(Object.keys(FIELDS).sort());
  });

  it('deals the benchmarks to lanes, each once, the longest first in each lane', () => {
    expect(lanesOf(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3)).toEqual([['a', 'f', 'g'], ['b', 'e'], ['c', 'd']]);
    expect(lanesOf(['a', 'b'], 3)).toEqual([['a'], ['b']]);
  });

  it('runs every benchmark once on tiny inputs and prints each one\'s JSON', async () => {
    const report: Record<string, Record<string, unknown> | undefined> = {};
    for (const r of await Promise.all(lanesOf(Object.keys(FIELDS), 3).map(smokeRun))) {
      expect(r.status, `${r.benches.join(',')}: ${r.stderr}`).toBe(0);
      const own = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
      expect(Object.keys(own).sort(), r.benches.join(',')).toEqual([...r.benches].sort());
      for (const bench of r.benches) report[bench] = own[bench];
    }
    const part = (bench: string): Record<string, unknown> => report[bench] ?? {};
    expect(Object.keys(report).sort()).toEqual(Object.keys(FIELDS).sort());
    for (const [bench, fields] of Object.entries(FIELDS)) {
      for (const field of fields) expect(report[bench], `${bench}.${field}`).toHaveProperty(field);
    }
    const kernel = part('kernel') as unknown as { replay: { full: unknown; window8: unknown }[] };
    expect(kernel.replay).toHaveLength(3);
    for (const workload of kernel.replay) expect(workload).toMatchObject({ full: expect.any(Object), window8: expect.any(Object) });
    expect((part('replayFast').longTrace as unknown[]).length).toBe(12);
    expect((part('replayLinear').readableLoop as unknown[]).length).toBe(2);
    const hostile = part('hostileMemory').cases as { case: string; exitCode: number }[];
    expect(hostile.map((c) => [0, 2].includes(c.exitCode)), JSON.stringify(hostile.map((c) => [c.case, c.exitCode]))).toEqual(Array(6).fill(true));
    expect((part('workers').runs16 as { identical: boolean }).identical).toBe(true);
    // Every serve case drives each of its sessions to its end, and measures what an ended one keeps.
    const serve = part('serveSessionsMemory') as unknown as { sessions: number; cases: { sessions: number; ended: number; bytesPerSession: number }[] };
    expect(serve.cases).toHaveLength(5);
    for (const c of serve.cases) expect([c.sessions, c.ended, Number.isFinite(c.bytesPerSession)]).toEqual([serve.sessions + 1, serve.sessions + 1, true]);
  }, 180_000);
});

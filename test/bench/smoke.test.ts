// The benchmarks (bench/*.mjs, `npm run bench`) are no test's: a script could break unseen (one passed a
// budget the library had come to refuse). `node bench/run.mjs --smoke --json` runs every script's code
// path once on tiny inputs (bench/lib/smoke.mjs); here it must end in exit 0 with every part's JSON.
// No timing is asserted: the figures of a smoke run mean nothing. Runs bench/ on dist/ (built first).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Each bench (bench/run.mjs's names) and fields its JSON must hold. */
const FIELDS: Record<string, string[]> = {
  kernel: ['replay', 'sweep'],
  sweep: ['grid', 'nominalEvaluations', 'sweepCompiledEvaluationsPerSec', 'sweepHoistedEvaluationsPerSec', 'sweepCpuMs', 'readEveryCellCpuMs'],
  replayFast: ['longTrace'],
  replayLinear: ['readableLoop'],
  read: ['native', 'miniSweAgent'],
  importMemory: ['builds', 'peakGrowth'],
  nativeStreamMemory: ['builds', 'peakGrowth'],
  hostileMemory: ['cases'],
  serveSessionsMemory: ['sessions', 'cases'],
  startup: ['startupHelpMs', 'startupVersionMs', 'replayScenariosMs', 'bareNodeMs'],
  render: ['renderRows', 'replayMs', 'tableMs', 'csvMs', 'jsonMs', 'cliTable3Ms'],
  cache: ['inputMb', 'runs', 'noCache', 'coldCache', 'warmCache', 'warmFirstRun', 'compiled', 'smallRuns'],
  workers: ['runs16'],
};

describe('bench smoke run', () => {
  it('runs every benchmark once on tiny inputs and prints each one\'s JSON', () => {
    const r = spawnSync(process.execPath, ['bench/run.mjs', '--smoke', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Record<string, Record<string, unknown> | undefined>;
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
    expect((part('hostileMemory').cases as { exitCode: number }[]).map((c) => [0, 2].includes(c.exitCode))).toEqual(Array(6).fill(true));
    expect((part('workers').runs16 as { identical: boolean }).identical).toBe(true);
    // Every serve case drives each of its sessions to its end, and measures what an ended one keeps.
    const serve = part('serveSessionsMemory') as unknown as { sessions: number; cases: { sessions: number; ended: number; bytesPerSession: number }[] };
    expect(serve.cases).toHaveLength(5);
    for (const c of serve.cases) expect([c.sessions, c.ended, Number.isFinite(c.bytesPerSession)]).toEqual([serve.sessions + 1, serve.sessions + 1, true]);
  }, 120_000);
});

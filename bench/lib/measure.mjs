// What the benchmarks share: a native JSONL file of synthetic runs (1,000 calls each by default),
// CPU time of this process, and the median of a list.
import { closeSync, openSync, writeSync } from 'node:fs';

/** Writes `runs` runs of `callsPerRun` plain calls (one bash tool call each) as native JSONL to `path`. */
export function writeNativeRuns(path, runs, callsPerRun = 1000) {
  const fd = openSync(path, 'w');
  for (let r = 0; r < runs; r++) {
    let text = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":1200,"goalTokens":300}\n';
    for (let c = 0; c < callsPerRun; c++) {
      text += `{"type":"call","outputTokens":${50 + (c % 7)},"latencyMs":1500,"toolCalls":[{"name":"bash","arguments":{"command":"cat file${c % 97}.py"},"resultTokens":${200 + (c % 13)}}]}\n`;
    }
    writeSync(fd, text + '{"type":"end","outcome":"completed"}\n');
  }
  closeSync(fd);
}

/** CPU time (user + system) of this process so far, in ms. */
export const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The median of a list (of an even count, the mean of the middle two). */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
};

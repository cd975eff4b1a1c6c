// Rendering must not take longer than the replay it reports (issue 7). A 50-setting what-if on the 38
// shared mini-swe-agent runs (1,900 run × setting rows): the replay, then every report format, and for
// comparison cli-table3 laying out the same per-run rows (what loopcost used before src/report/table.ts).
// Not a test: `npm run bench` (`-- --json` for one object).
import Table from 'cli-table3';
import { loadTraceFiles } from '../dist/import/libraryReaders.js';
import { loadPriceTable } from '../dist/pricing/index.js';
import { collectInputs } from '../dist/io/collectInputs.js';
import { brakesFromSpec } from '../dist/flags/settingsFlags.js';
import { whatIf } from '../dist/replay/whatif.js';
import { buildWhatIfReport, renderWhatIfCsv, renderWhatIfTable } from '../dist/report/whatifReport.js';
import { reportSettings } from '../dist/report/settings.js';
import { pricesRecord } from '../dist/report/pricedModels.js';
import { NO_BRAKES } from '../dist/brakes/config.js';
import { firstOfEachFolder, smoke, sized } from './lib/smoke.mjs';

const MINI = '../shared/traces/mini-swe-agent';
const prices = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });
const traces = [];
for await (const trace of loadTraceFiles(collectInputs(smoke ? firstOfEachFolder(MINI) : [MINI]))) traces.push(trace);
const tries = [];
for (let i = 0; i < sized(50, 4); i++) tries.push(i % 2 ? `max-steps=${10 + i * 4}` : `max-repeat=${2 + (i % 7)},repeat-mode=${i % 4 ? 'total' : 'consecutive'},max-cost=${(0.02 * (i + 1)).toFixed(2)}`);
const settings = tries.map((name) => ({ name, brakes: brakesFromSpec(name) }));

/** Best of `rounds` timings of fn, in ms. */
function best(fn, rounds = sized(10, 1)) {
  let min = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    min = Math.min(min, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return min;
}

let result;
const replayMs = best(() => (result = whatIf(traces, settings, { strategy: { kind: 'full' }, prices })));
const report = buildWhatIfReport({ result, settings, reportSettings: reportSettings({ brakes: NO_BRAKES, perRunRecordedLimits: true, strategy: { kind: 'full' } }), prices: pricesRecord(prices.source, { models: [] }), warnings: [] });
const view = { width: 120, wide: false, perRun: true };
const tableMs = best(() => renderWhatIfTable(report, view));
const csvMs = best(() => renderWhatIfCsv(report));
const jsonMs = best(() => JSON.stringify(report, null, 2));
const cliTable3Ms = best(() => {
  const table = new Table({ head: ['source', 'setting', 'baseline', 'what-if', 'steps', 'cost', 'false stop'], style: { head: [], border: [] } });
  for (const row of report.runs) table.push([row.source, row.setting, `${row.baselineStopReason} (${row.baselineSteps}, $${row.baselineCostUsd.toFixed(4)})`, row.stopReason, row.steps, `$${row.costUsd.toFixed(4)}`, row.falseStop ? 'FALSE STOP' : '']);
  return table.toString();
}, sized(2, 1));

const figures = { renderRows: report.runs.length, replayMs: +replayMs.toFixed(1), tableMs: +tableMs.toFixed(1), csvMs: +csvMs.toFixed(1), jsonMs: +jsonMs.toFixed(1), cliTable3Ms: +cliTable3Ms.toFixed(1) };
if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
else {
  console.log(`rendering a 50-setting what-if (${figures.renderRows} run × setting rows; target: every format within the replay's time)`);
  console.log(`  replay (whatIf)        ${figures.replayMs} ms`);
  console.log(`  table (--per-run)      ${figures.tableMs} ms`);
  console.log(`  csv                    ${figures.csvMs} ms`);
  console.log(`  json                   ${figures.jsonMs} ms`);
  console.log(`  cli-table3, same rows  ${figures.cliTable3Ms} ms (before)`);
}

'use strict';
// A `sweep --workers` thread (src/cli/actions/sweepWorkers.ts starts it): the work from the build's sweep
// worker bundle through V8's code cache (bin/loadCli.js), as bin/loopcost.js runs the CLI — not ~300
// modules resolved and compiled again on every thread.
const { parentPort, workerData } = require('node:worker_threads');
const { loadSweepWorker } = require('./loadCli.js');

loadSweepWorker().then((runSweepWorker) => runSweepWorker(workerData, parentPort));

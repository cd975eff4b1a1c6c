#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): a CommonJS entry starts without Node's ES module loader (~5 ms).
const { loadMain } = require('./loadCli.js');

// A reader that stops early (`loopcost import … | head -1`) closes the pipe: that is the reader's
// choice, not a failure, so the rest of the output is dropped quietly, as `cat` would.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

async function run() {
  // The CLI from the build's one-script bundle, through V8's code cache (bin/loadCli.js; README, Development).
  const main = await loadMain();
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    cwd: process.cwd(),
    ...(process.stdout.isTTY && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
    ...(process.stderr.isTTY ? { stderrIsTerminal: true } : {}),
  });
}

run().catch((error) => {
  // As an uncaught error at the top of a module would: the stack, exit 1 (main itself returns codes).
  process.exitCode = 1;
  throw error;
});

#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): a CommonJS entry starts without Node's ES module loader (~5 ms).
const { loadMain } = require('./loadCli.js');

// A reader that stops early (`loopcost import … | head -1`) closes the pipe: that is the reader's
// choice, not a failure, so the rest of the output is dropped quietly, as `cat` would.
function quietOnEpipe(stream) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  return stream;
}

// Each stream is made (and guarded) on first use: made as a pipe, process.stderr loads node:net (~3 ms of
// a start) for a command that writes nothing there.
let stdout;
let stderr;
const out = () => (stdout ??= quietOnEpipe(process.stdout));
const err = () => (stderr ??= quietOnEpipe(process.stderr));

/** Resolves once everything written to `stream` so far has been handed to the OS (pipes are written asynchronously on macOS and Windows). */
function written(stream) {
  return stream === undefined ? undefined : new Promise((resolve) => stream.write('', resolve));
}

async function run() {
  // The CLI from the build's two linked scripts, through V8's code cache (bin/loadCli.js; README, Design notes).
  const main = await loadMain();
  const code = await main(process.argv.slice(2), {
    stdout: (s) => out().write(s),
    stderr: (s) => err().write(s),
    cwd: process.cwd(),
    ...(out().isTTY && out().columns > 0 ? { columns: out().columns } : {}),
    // Read by the commands that draw progress (sweep), only then.
    get stderrIsTerminal() {
      return err().isTTY === true;
    },
  });
  process.exitCode = code;
  // `main` returns when its command is done (every file written, workers and servers closed). Once the
  // output is out, exit at once: left to end by itself, the process first tears down its heap (~6–10 ms
  // of a 300 ms start; README, Development).
  await written(stdout);
  await written(stderr);
  process.exit(code);
}

run().catch((error) => {
  // As an uncaught error at the top of a module would: the stack, exit 1 (main itself returns codes).
  process.exitCode = 1;
  throw error;
});

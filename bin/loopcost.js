#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json): a CommonJS entry starts without Node's ES module loader (~5 ms).
const { loadMain } = require('./loadCli.js');

// Standard output or error that cannot be written (a full disk under `> report.json`, a device that fails)
// is the user's environment, not a bug: one line naming it, exit 2 (what was written before stays: a
// redirection cannot be taken back), never a stack trace.
const WRITE_PROBLEMS = { ENOSPC: 'no space left on the device', EDQUOT: 'the disk quota is used up', EFBIG: 'the file is larger than its file system or this process may write', EIO: 'an input/output error of the device', EROFS: 'the file system is read-only' };
function cannotWrite(name, error) {
  const why = WRITE_PROBLEMS[error.code] ?? error.message;
  try {
    require('node:fs').writeSync(2, `loopcost: ${name} cannot be written: ${why}; free some space or write with --out elsewhere\n`);
  } catch {
    // Standard error itself failed: the exit code says it.
  }
  process.exit(2);
}

// A reader that stops early (`loopcost import … | head -1`) closes the pipe: that is the reader's
// choice, not a failure, so the rest of the output is dropped quietly, as `cat` would.
function quietOnEpipe(stream, name) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    cannotWrite(name, error);
  });
  return stream;
}

/**
 * Standard output redirected to a regular file: written here with every byte checked. Node's own writer
 * for a file ignores a short write (a disk filling up takes what fits and fails only on the next write),
 * so a report's last chunk could be cut off with exit 0.
 */
function fileWriter(fd, name) {
  const fs = require('node:fs');
  return {
    isTTY: false,
    write(text, done) {
      const bytes = Buffer.from(text, 'utf8');
      try {
        for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      } catch (error) {
        cannotWrite(name, error);
      }
      done?.();
      return true;
    },
  };
}

function isRegularFile(fd) {
  try {
    return require('node:fs').fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/** A standard stream, guarded: a file through fileWriter, else Node's stream (its synchronous errors said as its async ones). */
function guarded(fd, name, stream) {
  if (isRegularFile(fd)) return fileWriter(fd, name);
  const node = quietOnEpipe(stream(), name);
  return {
    get isTTY() {
      return node.isTTY;
    },
    get columns() {
      return node.columns;
    },
    write(text, done) {
      try {
        return node.write(text, done);
      } catch (error) {
        if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        cannotWrite(name, error);
      }
    },
  };
}

// Each stream is made (and guarded) on first use: made as a pipe, process.stderr loads node:net (~3 ms of
// a start) for a command that writes nothing there.
let stdout;
let stderr;
const out = () => (stdout ??= guarded(1, 'standard output', () => process.stdout));
const err = () => (stderr ??= guarded(2, 'standard error', () => process.stderr));

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
  // The stack, as an uncaught error would print it, and the internal error's exit code (70, as main
  // returns for one: 1 is check's failed gate).
  process.stderr.write(`loopcost: internal error — please report it\n${error?.stack ?? String(error)}\n`);
  process.exit(70);
});

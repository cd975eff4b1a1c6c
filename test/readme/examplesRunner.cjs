'use strict';
// The README examples' runner (test/readme/readme.test.ts forks it in the fresh copy, its working
// directory): each example it is sent, `{ id, argv }`, is run through `main` of the copy's build as
// bin/loopcost.js runs it (bin/loadCli.js: the linked bundles through V8's code cache), one after another
// in this one process; it answers `{ id, code, stderr }`. A rejected `main` is the internal error the bin
// reports (exit 70, the stack). Standard output is dropped, as the spawned examples' is.
const { join } = require('node:path');

const { loadMain } = require(join(process.cwd(), 'bin/loadCli.js'));
const mainLoaded = loadMain();
let queue = Promise.resolve();

process.on('message', ({ id, argv }) => {
  queue = queue.then(async () => {
    let stderr = '';
    let code;
    try {
      const main = await mainLoaded;
      code = await main(argv, { stdout: () => true, stderr: (text) => ((stderr += text), true), cwd: process.cwd() });
    } catch (error) {
      stderr += `loopcost: internal error — please report it\n${error?.stack ?? String(error)}\n`;
      code = 70;
    }
    process.send({ id, code, stderr });
  });
});
// The test is done with it (or gone): whatever a command left open, this process ends.
process.on('disconnect', () => process.exit(0));

// Preloaded by bench/startup.mjs (`node --require …`): at exit, the process's CPU time (user + system, every
// thread) on stderr, in ms, for the bench to read. Nothing else.
'use strict';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nloopcost-bench-cpu-ms ${((user + system) / 1000).toFixed(2)}\n`);
});

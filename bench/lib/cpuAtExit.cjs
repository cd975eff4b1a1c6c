// Preloaded by bench/startup.mjs and bench/workers.mjs (`node --require …`): at exit, the process's CPU time
// (user + system, every thread) in ms and its minor page faults on stderr, for the bench to read. Nothing else.
// A page fault (first touch of fresh memory) costs ~10 µs on this project's machines: faults move far less
// than wall time on a shared machine, and say how much fresh memory a start touched.
'use strict';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nloopcost-bench-cpu-ms ${((user + system) / 1000).toFixed(2)} faults ${process.resourceUsage().minorPageFault}\n`);
});

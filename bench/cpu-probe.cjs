// Loaded with `node --require` by bench/package.bench.ts: on exit the child reports its own
// CPU time (user + system, microseconds) on stderr. CommonJS so that it does not start the
// ES module loader in a process that would not otherwise start it.
process.on("exit", () => {
  const u = process.cpuUsage();
  process.stderr.write(`cpu-us ${u.user + u.system}\n`);
});

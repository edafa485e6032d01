// A Node program that starts a worker thread (V8 reserves gigabytes of address space).
const { Worker } = require("worker_threads");
console.log("node up");
const worker = new Worker("console.log('node worker up')", { eval: true });
worker.on("exit", (code) => console.log(`node worker exit ${code}`));

// Loaded into a server a bench measures (node --expose-gc --import this): on SIGUSR2 it writes to
// BENCH_MEMORY_FILE the most the JavaScript heap and buffers held since the signal before (and what
// they held right after it), then forces a full garbage collection and starts watching again.
import { writeFileSync } from 'node:fs';

const held = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};
let base = held();
let peak = base;
setInterval(() => {
  peak = Math.max(peak, held());
}, 5).unref();
process.on('SIGUSR2', () => {
  peak = Math.max(peak, held());
  if (process.env.BENCH_MEMORY_FILE)
    writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify({ base, peak }));
  globalThis.gc?.();
  base = held();
  peak = base;
});

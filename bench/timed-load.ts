import autocannon from 'autocannon';

/**
 * A fixed-amount autocannon run with its true length: from its start to its last answer. autocannon ends
 * such a run at its next one-second sample tick, so its own `duration` is a whole number of seconds plus a
 * few milliseconds, overstating an eight-second run by half a second on average (rates came out as the
 * amount over a whole number of seconds).
 */
export async function timedLoad(
  options: autocannon.Options,
  answers?: Answer[],
): Promise<autocannon.Result & { answeredSeconds: number }> {
  const started = performance.now();
  let lastAnswer = started;
  const run = autocannon(options);
  run.on('response', (_client: unknown, _status: number, _bytes: number, latencyMs: number) => {
    lastAnswer = performance.now();
    answers?.push([Math.round(lastAnswer - started), Math.round(latencyMs)]);
  });
  const result = await run;
  return { ...result, answeredSeconds: (lastAnswer - started) / 1000 };
}

/**
 * One answer of a run: when it came (ms from the run's start) and how long it took (ms). A run's answers in
 * order show where its tail is (its start, a pause) where a histogram cannot.
 */
export type Answer = [atMs: number, latencyMs: number];

import autocannon from 'autocannon';

/**
 * A fixed-amount autocannon run with its true length: from its start to its last answer. autocannon ends
 * such a run at its next one-second sample tick, so its own `duration` is a whole number of seconds plus a
 * few milliseconds, overstating an eight-second run by half a second on average (rates came out as the
 * amount over a whole number of seconds).
 */
export async function timedLoad(
  options: autocannon.Options,
): Promise<autocannon.Result & { answeredSeconds: number }> {
  const started = performance.now();
  let lastAnswer = started;
  const run = autocannon(options);
  run.on('response', () => {
    lastAnswer = performance.now();
  });
  const result = await run;
  return { ...result, answeredSeconds: (lastAnswer - started) / 1000 };
}

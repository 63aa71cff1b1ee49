// Retry delays (exponential backoff with jitter) and an abortable sleep.

/** Longest delay between two retry rounds, whatever the base delay and round. */
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Delay before retry round `round` (0 for the first retry): `baseMs * 2^round`, capped at 30 s,
 * then scaled by a random factor from 50% to 100% so that many clients do not retry in step.
 */
export function retryDelay(baseMs: number, round: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** round);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * Waits `ms` milliseconds; rejects with the signal's reason on abort. The timer is deliberately
 * not unref'd: somebody awaits this call, and a script whose only pending work is a retry wait
 * must not exit before the retry runs.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

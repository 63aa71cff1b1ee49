// One cloud detection per device for a whole fleet: claim the device in the shared store, or wait for the peer that did.

import { setTimeout as delay } from "node:timers/promises";
import type { CacheEntry } from "../cache/types.js";
import type { MemoDevice } from "../types.js";
import type { Memo } from "./memo.js";

/** How often an instance waiting for another instance's detection looks in the shared memo. */
const PEER_POLL_MS = 20;

/**
 * Claims of the fleet's shared memo store (a store with `claim`, such as Redis). Before a cloud
 * detection, an instance claims the device; when another instance holds the claim, this one
 * waits for that instance's answer in the memo instead of asking the cloud too.
 */
export class PeerAnswers {
  readonly #memo: Memo;
  readonly #claimMs: number;

  /** `claimMs`: how long a claim holds (the request budget: past it, the claimant has given up). */
  constructor(memo: Memo, claimMs: number) {
    this.#memo = memo;
    this.#claimMs = claimMs;
  }

  /**
   * When another instance is already detecting `key`, its answer as it lands in the memo, waited
   * for at most `waitMs` and never past `signal`. `undefined`: detect here (the claim is ours, the
   * store cannot claim, or the peer did not answer in time).
   */
  async answerOf(
    key: string,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<CacheEntry<MemoDevice> | undefined> {
    if ((await this.#memo.claim(key, this.#claimMs)) !== false) return undefined;
    const deadline = Date.now() + waitMs;
    while (!signal.aborted && Date.now() < deadline) {
      // Unreferenced: a poll never keeps the process alive.
      await delay(PEER_POLL_MS, undefined, { ref: false });
      const entry = await this.#memo.freshDevice(key);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }
}

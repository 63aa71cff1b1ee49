// The fleet's claims: one instance detects a new device, the others wait for its answer in the shared memo.

import { describe, expect, it } from "vitest";
import type { CacheEntry, CacheStore } from "../../src/cache/types.js";
import { Memo } from "../../src/core/memo.js";
import { MemoStore } from "../../src/core/memo-store.js";
import { PeerAnswers } from "../../src/core/peer-answers.js";
import type { MemoValue } from "../../src/types.js";

const device: MemoValue = {
  kind: "device",
  reply: { status: 0, message: "OK" },
  source: "cloud",
  bot: false,
};

/** A shared store stand-in: `claimed` says whether a peer holds the claim; the answer lands after `landsAfter` reads. */
function sharedStore(
  claimed: boolean | undefined,
  landsAfter: number,
): CacheStore<MemoValue> & { reads: number } {
  const store = {
    reads: 0,
    get(): CacheEntry<MemoValue> | undefined {
      store.reads++;
      return store.reads > landsAfter
        ? { value: device, storedAt: Date.now(), expiresAt: Date.now() + 60_000 }
        : undefined;
    },
    set() {},
    delete() {},
    claim: async () => (claimed === undefined ? Promise.reject(new Error("down")) : !claimed),
  };
  return store;
}

const memoOf = (store: CacheStore<MemoValue>): Memo =>
  new Memo(new MemoStore(store, 250, { failed() {}, rejected() {} }), 60_000, () => 0);

describe("PeerAnswers", () => {
  it("detects here when it wins the claim", async () => {
    const store = sharedStore(false, 0);
    expect(
      await new PeerAnswers(memoOf(store), 1000).answerOf("k", 500, new AbortController().signal),
    ).toBeUndefined();
    expect(store.reads).toBe(0);
  });

  it("waits for the peer's answer when the peer holds the claim", async () => {
    const store = sharedStore(true, 2);
    const entry = await new PeerAnswers(memoOf(store), 1000).answerOf(
      "k",
      2000,
      new AbortController().signal,
    );
    expect(entry?.value).toEqual(device);
    expect(store.reads).toBe(3);
  });

  it("stops waiting when its budget ends or the peer stays silent, and detects here", async () => {
    const silent = sharedStore(true, Number.POSITIVE_INFINITY);
    const budget = new AbortController();
    setTimeout(() => budget.abort(), 50);
    expect(await new PeerAnswers(memoOf(silent), 1000).answerOf("k", 10_000, budget.signal)).toBeUndefined();
    expect(
      await new PeerAnswers(memoOf(silent), 1000).answerOf("k", 60, new AbortController().signal),
    ).toBeUndefined();
  });

  it("detects here when the store cannot claim right now", async () => {
    const down = sharedStore(undefined, 0);
    expect(
      await new PeerAnswers(memoOf(down), 1000).answerOf("k", 500, new AbortController().signal),
    ).toBeUndefined();
  });
});

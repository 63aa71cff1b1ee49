// DataRefresher: periodic sync with jitter, atomic swaps, failures that keep the old data, status, readiness, close.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HdLicenceError, HdNetworkError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import type { DataSource, SyncDownloadOptions } from "../../src/store/data-source.js";
import { DataStore, SPECS_FILE_NAME, TREES_FILE_NAME } from "../../src/store/data-store.js";
import { DataRefresher, type DataRefresherOptions, type RefreshStatus } from "../../src/store/refresher.js";
import { specsDownload, treesText } from "../engine/fixtures.js";

const OLD_SPECS = JSON.stringify(specsDownload({ "1": { general_model: "Old" } }));
const OLD_TREES = treesText('{"user-agent0":{"1":{"nokia":{"nokia":"1"}}}}');
const NEW_SPECS = JSON.stringify(specsDownload({ "2": { general_model: "New" } }));
const NEW_TREES = treesText('{"user-agent0":{"1":{"nokia":{"nokia":"2"}}}}');

const MINUTE = 60_000;

/** What the fake source does on its next downloads: write the new pair, fail, or wait for a release. */
type Next = "new" | Error | { wait: Promise<void> };

/** A download source that writes text like HdClient's `toFile` downloads, scripted per sync. */
function fakeSource() {
  const state = { next: "new" as Next, syncs: 0, signals: [] as (AbortSignal | undefined)[] };
  const download = async (text: string, options: SyncDownloadOptions, first: boolean) => {
    if (first) {
      state.syncs++;
      state.signals.push(options.signal);
    }
    const next = state.next;
    if (next instanceof Error) throw next;
    if (typeof next === "object") {
      await Promise.race([
        next.wait,
        new Promise((_, reject) => {
          const signal = options.signal;
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      ]);
    }
    writeFileSync(options.toFile, text);
    return { file: options.toFile, bytes: Buffer.byteLength(text) };
  };
  const source: DataSource = {
    fetchSpecs: (options) => download(NEW_SPECS, options, true),
    fetchTrees: (options) => download(NEW_TREES, options, false),
  };
  return { source, state };
}

let dir = "";
const refreshers: DataRefresher[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hd-refresher-"));
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  vi.setSystemTime(new Date("2024-01-03T03:04:05Z"));
});
afterEach(async () => {
  await Promise.all(refreshers.splice(0).map((r) => r.close()));
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function seed(): void {
  writeFileSync(join(dir, SPECS_FILE_NAME), OLD_SPECS);
  writeFileSync(join(dir, TREES_FILE_NAME), OLD_TREES);
}

const model = (store: DataStore) => store.engine?.detect({ "user-agent": "Nokia" }).hd_specs?.general_model;

/** A refresher over a store in `dir`, with hooks that resolve `events` promises. */
function setUp(options: Partial<DataRefresherOptions> = {}) {
  const fake = fakeSource();
  const store = new DataStore({ dir, source: fake.source, logger: silentLogger });
  const errors: { error: unknown; status: RefreshStatus }[] = [];
  const refreshes: RefreshStatus[] = [];
  let wake: () => void = () => undefined;
  const settled = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  const refresher = new DataRefresher({
    store,
    intervalMs: 60 * MINUTE,
    jitterMs: 10 * MINUTE,
    retryDelayMs: 5 * MINUTE,
    random: () => 0.5,
    logger: silentLogger,
    onError: (error, status) => {
      errors.push({ error, status });
      wake();
    },
    onRefresh: (_result, status) => {
      refreshes.push(status);
      wake();
    },
    ...options,
  });
  refreshers.push(refresher);
  return { ...fake, store, refresher, errors, refreshes, settled };
}

describe("DataRefresher start and readiness", () => {
  it("loads the local data on start, is ready, and waits one interval plus jitter before the first sync", async () => {
    seed();
    const { refresher, store, state, refreshes, settled } = setUp();
    expect(refresher.isReady()).toBe(false);
    expect(refresher.status()).toMatchObject({ ready: false, state: "stopped", devices: undefined });
    const status = await refresher.start();
    expect(status).toMatchObject({
      ready: true,
      state: "idle",
      devices: 1,
      dataVersion: { specs: "2024-01-02 03:04:05", trees: "2024-01-02 03:04:05" },
      dataAgeMs: 24 * 60 * MINUTE,
      loadedAt: "2024-01-03T03:04:05.000Z",
      lastError: undefined,
      nextRunAt: "2024-01-03T04:09:05.000Z", // 60 min + 0.5 × 10 min
    });
    expect(model(store)).toBe("Old");
    expect(state.syncs).toBe(0);

    vi.advanceTimersByTime(65 * MINUTE - 1);
    expect(state.syncs).toBe(0);
    const done = settled();
    vi.advanceTimersByTime(1);
    expect(refresher.status().state).toBe("syncing");
    await done;
    expect(state.syncs).toBe(1);
    expect(model(store)).toBe("New");
    expect(refreshes[0]).toMatchObject({
      ready: true,
      state: "idle",
      devices: 1,
      successes: 1,
      consecutiveFailures: 0,
      lastSuccessAt: "2024-01-03T04:09:05.000Z",
      nextRunAt: "2024-01-03T05:14:05.000Z",
    });
  });

  it("stays not ready until data is loaded: no local data syncs at once, a failure is retried after retryDelayMs", async () => {
    const { refresher, state, errors, settled } = setUp();
    state.next = new HdLicenceError({ status: 229, message: "No licence to download" });
    const status = await refresher.start();
    expect(state.syncs).toBe(1);
    expect(status).toMatchObject({
      ready: false,
      devices: undefined,
      dataVersion: { specs: undefined, trees: undefined },
      dataAgeMs: undefined,
      consecutiveFailures: 1,
      lastError: { code: "ERR_HD_SYNC", causeCode: "ERR_HD_LICENCE", status: 229 },
      nextRunAt: "2024-01-03T03:14:05.000Z", // 5 min + 0.5 × 10 min
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error).toMatchObject({ code: "ERR_HD_SYNC" });
    expect(refresher.isReady()).toBe(false);

    state.next = "new";
    const done = settled();
    vi.advanceTimersByTime(10 * MINUTE);
    await done;
    expect(refresher.isReady()).toBe(true);
    expect(refresher.status()).toMatchObject({
      ready: true,
      consecutiveFailures: 0,
      failures: 1,
      successes: 1,
    });
  });

  it("is not ready when the local files are unusable, reports ERR_HD_DATA, then syncs", async () => {
    writeFileSync(join(dir, SPECS_FILE_NAME), "{broken");
    writeFileSync(join(dir, TREES_FILE_NAME), OLD_TREES);
    const { refresher, store, errors } = setUp();
    const status = await refresher.start();
    expect(errors.map((e) => (e.error as { code?: string }).code)).toEqual(["ERR_HD_DATA"]);
    expect(status).toMatchObject({ ready: true, failures: 1, successes: 1, consecutiveFailures: 0 });
    expect(model(store)).toBe("New");
  });

  it("syncs at once with syncOnStart even when local data is present", async () => {
    seed();
    const { refresher, store, state } = setUp({ syncOnStart: true });
    await refresher.start();
    expect(state.syncs).toBe(1);
    expect(model(store)).toBe("New");
  });
});

describe("DataRefresher refreshes", () => {
  it("keeps the old data when a refresh fails, calls onError and surfaces a safe status", async () => {
    seed();
    const { refresher, store, state, errors, settled } = setUp();
    await refresher.start();
    state.next = new HdNetworkError("connect ECONNREFUSED https://user:hunter2@api.example/x", {});
    let done = settled();
    vi.advanceTimersByTime(65 * MINUTE);
    await done;
    expect(model(store)).toBe("Old");
    expect(refresher.isReady()).toBe(true);
    const [failure] = errors;
    expect(failure?.status).toMatchObject({
      ready: true,
      consecutiveFailures: 1,
      lastError: { code: "ERR_HD_SYNC", causeCode: "ERR_HD_NETWORK", at: "2024-01-03T04:09:05.000Z" },
      nextRunAt: "2024-01-03T04:19:05.000Z",
    });
    expect(JSON.stringify(refresher.status())).not.toContain("hunter2");
    expect(failure?.status.lastError?.message).toContain("//[redacted]@api.example");

    state.next = "new";
    done = settled();
    vi.advanceTimersByTime(10 * MINUTE);
    await done;
    expect(model(store)).toBe("New");
    expect(refresher.status()).toMatchObject({ consecutiveFailures: 0, failures: 1, successes: 1 });
    expect(refresher.status().lastError?.causeCode).toBe("ERR_HD_NETWORK"); // kept for the record
  });

  it("swaps the data atomically: detection answers the old data until the new pair is installed", async () => {
    seed();
    const { refresher, store, state } = setUp();
    await refresher.start();
    let release: () => void = () => undefined;
    state.next = { wait: new Promise<void>((resolve) => (release = resolve)) };
    const engine = store.engine;
    const pending = refresher.refreshNow();
    expect(refresher.refreshNow()).toBe(pending); // shared while running
    expect(model(store)).toBe("Old");
    release();
    await pending;
    expect(store.engine).toBe(engine); // same engine object, new data
    expect(model(store)).toBe("New");
  });

  it("refreshNow rejects with the sync error and reschedules after retryDelayMs", async () => {
    seed();
    const { refresher, state, errors } = setUp();
    await refresher.start();
    state.next = new Error("disk full");
    await expect(refresher.refreshNow()).rejects.toMatchObject({ code: "ERR_HD_SYNC" });
    expect(errors).toHaveLength(1);
    expect(refresher.status().nextRunAt).toBe("2024-01-03T03:14:05.000Z");
  });

  it("logs HD_REFRESH_FAILED without onError, and survives a throwing hook", async () => {
    seed();
    const codes: unknown[] = [];
    const logger = {
      warn: (_message: string, details?: Record<string, unknown>) => codes.push(details?.code),
    };
    const quiet = setUp({ logger, onError: undefined });
    await quiet.refresher.start();
    quiet.state.next = new Error("boom");
    await expect(quiet.refresher.refreshNow()).rejects.toBeDefined();
    expect(codes).toEqual(["HD_REFRESH_FAILED"]);

    const loud = setUp({
      logger,
      onRefresh: () => {
        throw new Error("hook bug");
      },
    });
    await loud.refresher.start();
    await expect(loud.refresher.refreshNow()).resolves.toBeDefined();
    expect(codes).toEqual(["HD_REFRESH_FAILED", "HD_REFRESH_HOOK_FAILED"]);
  });
});

describe("DataRefresher jitter and timers", () => {
  it.each([
    [0, 60 * MINUTE],
    [0.5, 65 * MINUTE],
    [0.999_999, 70 * MINUTE - 1],
  ])(
    "with random() = %f the next run is due after %i ms: within [interval, interval + jitter)",
    (value, delay) => {
      seed();
      const { refresher } = setUp({ random: () => value });
      expect(refresher.nextDelayMs()).toBe(delay);
      expect(refresher.nextDelayMs(5 * MINUTE)).toBe(delay - 55 * MINUTE);
    },
  );

  it("defaults the jitter to a tenth of the interval and waits exactly the interval with jitterMs 0", async () => {
    seed();
    const { store } = setUp();
    const high = new DataRefresher({ store, intervalMs: 10 * MINUTE, random: () => 0.999_999 });
    expect(high.nextDelayMs()).toBe(11 * MINUTE - 1);
    const exact = new DataRefresher({ store, intervalMs: 10 * MINUTE, jitterMs: 0, random: () => 0.9 });
    expect(exact.nextDelayMs()).toBe(10 * MINUTE);
  });

  it("unrefs its timer, so it never keeps the process alive", async () => {
    seed();
    const { refresher } = setUp();
    const spy = vi.spyOn(globalThis, "setTimeout");
    await refresher.start();
    const timer = spy.mock.results.at(-1)?.value as { hasRef(): boolean } | undefined;
    spy.mockRestore();
    expect(timer?.hasRef()).toBe(false);
  });

  it("close stops the timers: nothing runs afterwards", async () => {
    seed();
    const { refresher, state } = setUp();
    await refresher.start();
    await refresher.close();
    expect(refresher.status()).toMatchObject({ state: "stopped", nextRunAt: undefined, ready: true });
    vi.advanceTimersByTime(24 * 60 * MINUTE);
    expect(state.syncs).toBe(0);
    await expect(refresher.refreshNow()).rejects.toMatchObject({ code: "ERR_HD_SYNC" });
    await refresher.close(); // idempotent
  });

  it("close aborts a sync in progress and keeps the data in use", async () => {
    seed();
    const { refresher, store, state, errors } = setUp();
    await refresher.start();
    state.next = { wait: new Promise<void>(() => undefined) };
    const pending = refresher.refreshNow();
    await refresher.close();
    await expect(pending).rejects.toMatchObject({ code: "ERR_HD_SYNC" });
    expect(state.signals.at(-1)?.aborted).toBe(true);
    expect(model(store)).toBe("Old");
    expect(errors).toHaveLength(0); // a deliberate stop is not reported as a failure
  });
});

describe("DataRefresher options", () => {
  it("validates its options, naming the option", () => {
    const store = new DataStore({ dir, logger: silentLogger });
    const bad: [Partial<DataRefresherOptions> & Record<string, unknown>, string][] = [
      [{ store: undefined as never }, "store"],
      [{ store: {} as DataStore }, "store"],
      [{ store, intervalMs: 10 }, "intervalMs"],
      [{ store, intervalMs: 1.5e3 + 0.5 }, "intervalMs"],
      [{ store, jitterMs: -1 }, "jitterMs"],
      [{ store, intervalMs: 2 ** 31 - 1, jitterMs: 10 }, "jitterMs"],
      [{ store, retryDelayMs: 0 }, "retryDelayMs"],
      [{ store, syncOnStart: "yes" as never }, "syncOnStart"],
      [{ store, onError: "log" as never }, "onError"],
      [{ store, interval: 1000 }, "interval"],
    ];
    for (const [options, option] of bad) {
      expect(() => new DataRefresher(options as DataRefresherOptions), option).toThrow(
        expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option }),
      );
    }
    expect(() => new DataRefresher({ store, interval: 1000 } as never)).toThrow(/Did you mean `intervalMs`/);
  });
});

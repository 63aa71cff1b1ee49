// A fleet sharing a real three-master Redis Cluster: one quota, one detection per new device, a node stopped mid-run.

import { Cluster, type ClusterOptions } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisStore, type RedisStore } from "../../src/cache/redis-store.js";
import { ClientBudget } from "../../src/core/client-budget.js";
import { monthOf } from "../../src/core/quota.js";
import type { ApiServer } from "../../src/server/api-server.js";
import type { MemoValue } from "../../src/types.js";
import { type FleetAnswer, fleetApp, visitFleetApp } from "../support/fleet-app.js";
import { startRedisCluster, type TestRedisCluster } from "../support/redis-cluster.js";
import { missingRedisServer, untilStoreAnswers } from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";
import { type SampleApi, startSampleApi } from "../support/sample-api.js";

const quiet = { warn() {} };

/** The Cluster options docs/caching.md recommends: fail fast, never queue while a node is away. */
const CLUSTER_OPTIONS: ClusterOptions = {
  enableOfflineQueue: false,
  clusterRetryStrategy: (times) => Math.min(50 * 2 ** times, 2_000),
  redisOptions: { maxRetriesPerRequest: 0, connectTimeout: 1_000 },
};

const skip = skipWhenMissing("test/cache/redis-cluster.e2e", missingRedisServer());

describe.skipIf(skip)("a fleet sharing a three-master Redis Cluster", () => {
  let cluster: TestRedisCluster;
  let upstream: SampleApi;
  let api: ApiServer;
  let userAgents: readonly string[];
  let raw: Cluster;
  const stores: RedisStore<MemoValue>[] = [];
  let prefix = 0;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    raw = new Cluster([...cluster.startupNodes], CLUSTER_OPTIONS);
    raw.on("error", () => {}); // a test stops a node: the client reconnects by itself
    upstream = await startSampleApi({ latencyMs: 50 });
    ({ api } = upstream);
    userAgents = upstream.userAgentsByDevice.flat();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  afterAll(async () => {
    raw?.disconnect();
    await upstream?.close();
    await cluster?.stop();
  });

  /** One app instance in cloud mode, its memo a Redis store on its own Cluster client. */
  function instance(keyPrefix: string, monthlyQuota?: number) {
    const client = new Cluster([...cluster.startupNodes], CLUSTER_OPTIONS);
    const store = createRedisStore<MemoValue>({ client, closeClient: true, keyPrefix, logger: quiet });
    stores.push(store);
    return { ...fleetApp(upstream.client(), store, quiet, monthlyQuota), store };
  }

  const visit = visitFleetApp;

  it("spreads the keys over the three masters", async () => {
    const keyPrefix = `spread-${++prefix}:`;
    const a = instance(keyPrefix);
    await untilStoreAnswers(a.store);
    for (const ua of userAgents.slice(0, 12)) await visit(a.app, ua);
    const perNode = await Promise.all(raw.nodes("master").map((node) => node.dbsize()));
    expect(perNode).toHaveLength(3);
    expect(perNode.every((count) => count > 0)).toBe(true);
  });

  it("spends 5 cloud detections in all for 20 distinct devices across two instances with a quota of 5", async () => {
    const keyPrefix = `quota-${++prefix}:`;
    const a = instance(keyPrefix, 5);
    const b = instance(keyPrefix, 5);
    await Promise.all([untilStoreAnswers(a.store), untilStoreAnswers(b.store)]);
    const before = api.counts.detect;
    const answers = await Promise.all(
      userAgents.slice(0, 20).map((ua, i) => visit((i % 2 === 0 ? a : b).app, ua)),
    );
    expect(api.counts.detect - before).toBe(5);
    expect(answers.filter((d) => d.source === "cloud")).toHaveLength(5);
    expect(answers.filter((d) => d.source === "skipped")).toHaveLength(15);
    expect(b.middleware.metrics().quota).toMatchObject({ used: 5, remaining: 0, shared: true });
  });

  it("detects a new device once for the fleet when three instances are asked for it at once", async () => {
    const keyPrefix = `claims-${++prefix}:`;
    const fleet = [instance(keyPrefix), instance(keyPrefix), instance(keyPrefix)];
    await Promise.all(fleet.map((i) => untilStoreAnswers(i.store)));
    const before = api.counts.detect;
    const devices = userAgents.slice(30, 35);
    const answers = await Promise.all(devices.flatMap((ua) => fleet.map((i) => visit(i.app, ua))));
    expect(answers.every((d) => d.status === 0)).toBe(true);
    expect(api.counts.detect - before).toBe(devices.length);
    // One instance detected each device; the others had its answer from the cluster.
    expect(answers.filter((d) => d.source === "cloud")).toHaveLength(devices.length);
    expect(answers.filter((d) => d.source === "memo")).toHaveLength(devices.length * (fleet.length - 1));
  });

  it("counts each client's cloud detections once for the fleet (cloudDetectionsPerClient)", async () => {
    const keyPrefix = `clients-${++prefix}:`;
    // A generous command timeout: this test is about counting, not about a slow machine.
    const shared = [0, 1].map(() =>
      createRedisStore<MemoValue>({
        client: new Cluster([...cluster.startupNodes], CLUSTER_OPTIONS),
        closeClient: true,
        keyPrefix,
        commandTimeoutMs: 2_000,
        logger: quiet,
      }),
    );
    stores.push(...shared);
    await Promise.all(shared.map((store) => untilStoreAnswers(store)));
    const budgets = shared.map((store) => new ClientBudget({ limit: 5, windowMs: 60_000, counter: store }));
    const takes: boolean[] = [];
    for (let n = 0; n < 12; n++) takes.push(await (budgets[n % 2] as ClientBudget).take("203.0.113.7"));
    expect(takes.filter(Boolean)).toHaveLength(5);
    expect(await budgets[1]?.take("198.51.100.1")).toBe(true);
    const key = `${keyPrefix}c:203.0.113.7:${Math.floor(Date.now() / 60_000)}`;
    // 5 allowed, then one refusal each (the fleet had spent it); after that each refused by itself.
    expect(await raw.get(key)).toBe("7");
    expect(await raw.pttl(key)).toBeLessThanOrEqual(60_000);
  });

  it("answers every request while a master is stopped mid-run, and acts as one fleet again once it is back", async () => {
    const keyPrefix = `outage-${++prefix}:`;
    const fleet = [instance(keyPrefix, 10_000), instance(keyPrefix, 10_000), instance(keyPrefix, 10_000)];
    await Promise.all(fleet.map((i) => untilStoreAnswers(i.store)));
    const known = userAgents.slice(0, 9);
    for (const [n, ua] of known.entries()) await visit((fleet[n % 3] ?? fleet[0]!).app, ua);
    const errorsBefore = fleet.reduce((sum, i) => sum + i.store.stats.errors, 0);

    await cluster.killNode(1);
    // Requests for known and new devices on every instance, for twice the cluster's node timeout:
    // first the stopped master's slots fail, then the whole cluster refuses (CLUSTERDOWN). At
    // least three rounds however slow the machine: a request for a new device waits out the
    // store's command timeout on each of its Redis calls in turn.
    const during: FleetAnswer[] = [];
    const fresh = userAgents.slice(40, 70);
    const stopAt = Date.now() + 2_500;
    for (let round = 0; (round < 3 || Date.now() < stopAt) && round < fresh.length; round++) {
      const batch = fleet.map((i, k) =>
        visit(i.app, k === 0 ? (fresh[round] as string) : (known[(round + k) % known.length] as string)),
      );
      during.push(...(await Promise.all(batch)));
    }
    const failedStoreCalls = fleet.reduce((sum, i) => sum + i.store.stats.errors, 0) - errorsBefore;
    // Failed open: every request had its device, from the cloud or this instance's memo of it.
    expect(during.every((d) => d.status === 0 && d.model !== "")).toBe(true);
    expect(failedStoreCalls).toBeGreaterThan(0);
    console.info(
      `redis-cluster.e2e: ${during.length} requests with a master stopped, all answered (${
        during.filter((d) => d.source === "cloud").length
      } from the cloud); ${failedStoreCalls} store calls failed open`,
    );

    const restarted = Date.now();
    await cluster.restartNode(1);
    await cluster.untilHealthy();
    await Promise.all(fleet.map((i) => untilStoreAnswers(i.store)));
    console.info(
      `redis-cluster.e2e: the cluster answered again ${Date.now() - restarted} ms after the restart`,
    );
    const before = api.counts.detect;
    const devices = userAgents.slice(80, 84);
    const answers = await Promise.all(devices.flatMap((ua) => fleet.map((i) => visit(i.app, ua))));
    expect(answers.every((d) => d.status === 0)).toBe(true);
    expect(api.counts.detect - before).toBe(devices.length);
    expect(answers.filter((d) => d.source === "cloud")).toHaveLength(devices.length);
    expect(Number(await raw.get(`${keyPrefix}q:${monthOf(Date.now())}`))).toBeGreaterThan(0);
  });
});

// Two tiered stores (memory level 1) sharing a real redis-server as level 2, and Redis dying under them.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory-store.js";
import { createRedisStore } from "../../src/cache/redis-store.js";
import { createTieredStore } from "../../src/cache/tiered-store.js";
import type { CacheEntry } from "../../src/cache/types.js";
import {
  missingRedisServer,
  startRedisServer,
  type TestRedis,
  untilStoreAnswers,
} from "../support/redis-server.js";
import { skipWhenMissing } from "../support/requirements.js";

function entry<V>(value: V): CacheEntry<V> {
  const now = Date.now();
  return { value, storedAt: now, expiresAt: now + 60_000 };
}

const skip = skipWhenMissing("test/cache/tiered-store.e2e", missingRedisServer());

describe.skipIf(skip)("two instances with memory level 1 and a shared Redis level 2", () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  function instance() {
    const level2 = createRedisStore<string>({ url: redis.url, keyPrefix: "fleet:", logger: { warn() {} } });
    return { level2, store: createTieredStore({ level1: new MemoryStore<string>(), level2 }) };
  }

  it("shares an entry written by one instance with the other, and keeps serving level 1 with Redis killed", async () => {
    const a = instance();
    const b = instance();
    try {
      await Promise.all([untilStoreAnswers(a.level2), untilStoreAnswers(b.level2)]);
      await a.store.set("ua-1", entry("Mobile"));
      expect((await b.store.get("ua-1"))?.value).toBe("Mobile");
      expect(b.level2.stats.hits).toBeGreaterThan(0);

      await redis.kill();
      const started = performance.now();
      expect((await b.store.get("ua-1"))?.value).toBe("Mobile");
      expect(await b.store.get("ua-2")).toBeUndefined();
      await b.store.set("ua-3", entry("Tablet"));
      expect((await b.store.get("ua-3"))?.value).toBe("Tablet");
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await Promise.all([a.store.close(), b.store.close()]);
      await redis.restart();
    }
  });
});

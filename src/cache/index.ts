// The `express-handset-detection/redis` entry point: memo stores a fleet shares through Redis.

export {
  createRedisStore,
  type RedisLikeClient,
  type RedisStore,
  type RedisStoreOptions,
  type RedisStoreStats,
} from "./redis-store.js";
export { createTieredStore, type TieredStoreOptions } from "./tiered-store.js";
export type { CacheEntry, CacheStore } from "./types.js";

// A memo shared by every instance through Redis (npm install ioredis):
// REDIS_URL=redis://127.0.0.1:6379 HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/redis-memo.js
// #region tiered
import express from "express";
import { handsetDetection, MemoryStore } from "express-handset-detection";
import { createRedisStore, createTieredStore } from "express-handset-detection/redis";

const redis = createRedisStore({ url: process.env.REDIS_URL, keyPrefix: "myapp:hd3:" }); // shared by the fleet
const store = createTieredStore({
  level1: new MemoryStore({ maxEntries: 10_000 }), // per process, answered synchronously
  level2: redis,
});
const app = express();
app.use(
  handsetDetection({
    username: process.env.HD_USERNAME,
    secret: process.env.HD_SECRET,
    siteId: process.env.HD_SITE_ID,
    baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
    store,
    monthlyQuota: 20_000, // counted for the whole fleet in Redis
  }),
);
app.get("/", (req, res) => res.json({ model: req.device.specs.general_model, source: req.device.source }));
await redis.ready(5_000); // take traffic once Redis answers (or after 5 s without it)
const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => console.log(`http://localhost:${port}`));

process.once("SIGTERM", () => server.close(() => store.close())); // closes both levels
// #endregion tiered

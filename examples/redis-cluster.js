// A memo shared by every instance through a Redis Cluster (npm install ioredis):
// REDIS_CLUSTER_NODES=10.0.0.1:6379,10.0.0.2:6379 HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... node examples/redis-cluster.js
// #region cluster
import express from "express";
import { Cluster } from "ioredis";
import { handsetDetection } from "express-handset-detection";
import { createRedisStore } from "express-handset-detection/redis";

// Any masters to start from: ioredis finds the others and follows slots as they move.
const nodes = (process.env.REDIS_CLUSTER_NODES ?? "127.0.0.1:7000").split(",").map((node) => {
  const [host, port] = node.split(":");
  return { host, port: Number(port) };
});
const cluster = new Cluster(nodes, {
  enableOfflineQueue: false, // never queue commands while a node is away: the store answers "not found"
  clusterRetryStrategy: (times) => Math.min(50 * 2 ** times, 2_000),
  redisOptions: { maxRetriesPerRequest: 0, connectTimeout: 1_000 },
});
const store = createRedisStore({ client: cluster, closeClient: true, keyPrefix: "myapp:hd3:" });
const app = express();
app.use(
  handsetDetection({
    username: process.env.HD_USERNAME,
    secret: process.env.HD_SECRET,
    siteId: process.env.HD_SITE_ID,
    baseUrl: process.env.HD_BASE_URL, // unset: the vendor's service
    store,
    monthlyQuota: 20_000, // counted for the whole fleet, on one master of the cluster
  }),
);
app.get("/", (req, res) => res.json({ model: req.device.specs.general_model, source: req.device.source }));
await store.ready(5_000); // take traffic once the cluster answers (or after 5 s without it)
const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => console.log(`http://localhost:${port}`));

process.once("SIGTERM", () => server.close(() => store.close())); // closes the cluster client too
// #endregion cluster

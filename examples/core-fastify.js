import Fastify from "fastify";
import { createDeviceDetector, sampleEngine } from "express-handset-detection";

const detector = createDeviceDetector({ engine: sampleEngine() });
const app = Fastify();
app.addHook("onClose", () => detector.close());
app.get("/", async (request) => {
  const device = await detector.detect(request.headers, { ip: request.ip });
  return `${device.specs.general_model} (${device.class})`;
});
const port = Number(process.env.PORT ?? 3000);
await app.listen({ port });
console.log(`http://localhost:${port}`);

import Fastify from "fastify";
import { createDeviceDetector, sampleEngine } from "express-handset-detection";

const detector = createDeviceDetector({ engine: sampleEngine() });
const app = Fastify();
app.decorateRequest("device", null);
app.addHook("onRequest", async (request) => {
  request.device = await detector.detect(request.headers, { ip: request.ip });
});
app.addHook("onClose", () => detector.close());
app.get("/", async (request) => `${request.device.specs.general_model} (${request.device.class})`);
await app.listen({ port: Number(process.env.PORT ?? 3000) });
console.log(`http://localhost:${app.server.address().port}`);

import { createServer } from "node:http";
import { createDeviceDetector, sampleEngine } from "express-handset-detection";

const detector = createDeviceDetector({ engine: sampleEngine() });
const server = createServer(async (req, res) => {
  const device = await detector.detect(req.headers, { ip: req.socket.remoteAddress });
  res.end(`${device.specs.general_vendor} ${device.specs.general_model} (${device.class})`);
});
const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => console.log(`http://localhost:${port}`));
server.on("close", () => detector.close());

import { createServer } from "node:http";
import { createDeviceDetector, sampleEngine } from "express-handset-detection";

const detector = createDeviceDetector({ engine: sampleEngine() });
const server = createServer(async (req, res) => {
  const device = await detector.detect(req.headers, { ip: req.socket.remoteAddress });
  res.end(`${device.specs.general_vendor} ${device.specs.general_model} (${device.class})`);
});
server.listen(process.env.PORT ?? 3000, () => console.log(`http://localhost:${server.address().port}`));
server.on("close", () => detector.close());

// Refused credentials are said at once and kept as the cause while the breaker holds the cloud back.

import request from "supertest";
import { describe, expect, it } from "vitest";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, IPHONE_UA, recordingLogger } from "../middleware/helpers.js";
import { clientFor } from "../support/api-test-client.js";
import { apiTestServerForFile } from "../support/api-test-server-hooks.js";

const server = apiTestServerForFile();
const [, makeApp] = EXPRESS_VERSIONS[0]!;

describe("wrong credentials", () => {
  it("warn once at the first refusal, naming what to check, and keep ERR_HD_AUTH while the breaker is open", async () => {
    const logger = recordingLogger();
    const client = clientFor(server(), { secret: "not-the-secret", siteId: 42, logger });
    const mw = handsetDetection({
      client,
      mode: "cloud",
      detectOptions: ["geoip"],
      breakerThreshold: 2,
      timeoutMs: 5_000,
      logger,
    });
    const app = deviceApp(makeApp, mw);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(app).get("/").set("User-Agent", `${IPHONE_UA} ${i}`).expect(200);
      codes.push(res.body.error.code);
    }
    expect(codes).toEqual(["ERR_HD_AUTH", "ERR_HD_AUTH", "ERR_HD_AUTH", "ERR_HD_AUTH", "ERR_HD_AUTH"]);
    expect(mw.metrics().breaker.state).toBe("open");
    expect(mw.metrics().cloud.pausedByBreaker).toBe(3);
    const refused = logger.warnings.filter((w) => w.details?.code === "HD_CLOUD_CREDENTIALS_REFUSED");
    expect(refused).toHaveLength(1);
    expect(refused[0]?.message).toMatch(/username.*secret.*siteId/);
    expect(JSON.stringify(logger.warnings)).not.toContain("not-the-secret");
    await mw.close();
  });

  it("are not said for a cloud that fails otherwise", async () => {
    const logger = recordingLogger();
    server().script("detect", { kind: "destroy" }, { kind: "destroy" });
    const mw = handsetDetection({ client: clientFor(server(), { logger }), mode: "cloud", logger });
    await request(deviceApp(makeApp, mw)).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(logger.warnings.filter((w) => w.details?.code === "HD_CLOUD_CREDENTIALS_REFUSED")).toEqual([]);
    await mw.close();
  });
});

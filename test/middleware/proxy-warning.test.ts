// A forgotten `trust proxy` is said once: behind a proxy every visitor would be one client.

import request from "supertest";
import { describe, expect, it } from "vitest";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { deviceApp, EXPRESS_VERSIONS, fakeCloud, IPHONE_UA, recordingLogger } from "./helpers.js";

const warningsOf = (logger: ReturnType<typeof recordingLogger>) =>
  logger.warnings.filter((w) => w.details?.code === "HD_TRUST_PROXY_OFF");

describe.each(EXPRESS_VERSIONS)("requests through a proxy on %s", (_name, makeApp) => {
  it.each(["X-Forwarded-For", "Forwarded"])(
    "with %s and trust proxy off: one warning naming the setting, cloudDetectionsPerClient and geoip",
    async (header) => {
      const logger = recordingLogger();
      const mw = handsetDetection({ client: fakeCloud(), monthlyQuota: 10_000, logger });
      const app = deviceApp(makeApp, mw);
      const value = header === "Forwarded" ? "for=198.51.100.7" : "198.51.100.7";
      for (let i = 0; i < 3; i++) {
        await request(app).get("/").set("User-Agent", IPHONE_UA).set(header, value).expect(200);
      }
      const warnings = warningsOf(logger);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain("trust proxy");
      expect(warnings[0]?.message).toContain("cloudDetectionsPerClient");
      expect(warnings[0]?.message).toContain("geoip");
      expect(warnings[0]?.message).not.toContain("198.51.100.7");
      await mw.close();
    },
  );

  it("says nothing when trust proxy is set, or when no request comes through a proxy", async () => {
    for (const [trust, forwarded] of [
      [1, true],
      [false, false],
    ] as const) {
      const logger = recordingLogger();
      const mw = handsetDetection({ client: fakeCloud(), logger });
      const app = deviceApp(makeApp, mw, trust as never);
      const call = request(app).get("/").set("User-Agent", IPHONE_UA);
      await (forwarded ? call.set("X-Forwarded-For", "198.51.100.7") : call).expect(200);
      expect(warningsOf(logger)).toEqual([]);
      await mw.close();
    }
  });
});

// Every Android device of the sample database is named from Chrome's reduced user-agent plus its model hint.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import type { SpecsDownload } from "../../src/types.js";
import { callMiddleware } from "../middleware/call-middleware.js";

const SAMPLE = new URL("../../data/sample/", import.meta.url);
const specsText = readFileSync(new URL("sample-specs.json", SAMPLE), "utf8");
const specs = JSON.parse(specsText) as SpecsDownload;
const useragents = JSON.parse(readFileSync(new URL("useragents.json", SAMPLE), "utf8")) as {
  devices: Record<string, { device: string; userAgents: string[] }>;
};

/** What Chrome on Android sends today, for a phone (`Mobile`) or a tablet. */
const reducedUserAgent = (mobile: boolean): string =>
  `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 ${mobile ? "Mobile " : ""}Safari/537.36`;

/**
 * The Android devices of the sample database with the model names their own user-agents carry
 * (`Build.MODEL`, which is also what Sec-CH-UA-Model sends) and the Android version.
 */
const ANDROID_DEVICES = specs.devices.flatMap(({ Device: { _id: id, hd_specs: record } }) => {
  const models = new Map<string, string>();
  for (const userAgent of useragents.devices[id]?.userAgents ?? []) {
    // The model may hold parentheses ("moto g(60)"): it runs to " Build/", "; wv)" or ") AppleWebKit".
    const match = /\(Linux; Android ([\d.]+); (.+?)(?: Build\/[^;)]*)?(?:; wv)?\) AppleWebKit\//.exec(
      userAgent,
    );
    if (match !== null && match[2] !== "K") models.set(match[2]!, match[1]!);
  }
  return [...models].map(([model, version]) => ({
    id,
    name: `${record.general_vendor} ${record.general_model}`,
    type: record.general_type,
    model,
    version,
  }));
});

describe("client hints on the sample database", () => {
  const engine = LocalEngine.fromData(
    specs,
    readFileSync(new URL("sample-trees.json", SAMPLE), "utf8") as never,
    {
      logger: silentLogger,
    },
  );
  const middleware = handsetDetection({ engine, cacheSize: 0, logger: silentLogger });

  it("covers every Android device of the sample database", () => {
    const ids = new Set(ANDROID_DEVICES.map((d) => d.id));
    const androidRecords = specs.devices.filter(({ Device: { hd_specs: s } }) =>
      /Android|Fire OS/.test(s.general_platform),
    );
    expect(androidRecords.length).toBeGreaterThanOrEqual(20);
    for (const { Device } of androidRecords) {
      if (Device.hd_specs.general_vendor === "Generic") continue;
      expect(ids.has(Device._id), `${Device.hd_specs.general_model} has a model in its user-agents`).toBe(
        true,
      );
    }
  });

  it.each(ANDROID_DEVICES)(
    "names $name from the reduced user-agent and Sec-CH-UA-Model $model",
    async (device) => {
      const mobile = device.type === "Mobile";
      const { device: found } = await callMiddleware(middleware, {
        "user-agent": reducedUserAgent(mobile),
        "sec-ch-ua": '"Chromium";v="131", "Google Chrome";v="131", "Not_A Brand";v="24"',
        "sec-ch-ua-mobile": mobile ? "?1" : "?0",
        "sec-ch-ua-platform": '"Android"',
        "sec-ch-ua-platform-version": `"${device.version}"`,
        "sec-ch-ua-model": JSON.stringify(device.model),
        "sec-ch-ua-full-version-list": '"Chromium";v="131.0.6778.135", "Google Chrome";v="131.0.6778.135"',
      });
      expect(`${found.specs.general_vendor} ${found.specs.general_model}`).toBe(device.name);
      expect(found.decidedBy).toBe("client-hints");
      expect(found.specs.general_platform_version).toBe(device.version.split(".")[0]);
    },
  );
});

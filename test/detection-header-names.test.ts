// The allowHeaders guard: every name that carries a subscriber id, device id, address, credential, session or key is refused, naming the rule; the device user-agent headers pass.

import { describe, expect, it } from "vitest";
import { HdClient } from "../src/client/index.js";
import {
  DETECTION_HEADERS,
  PRIVATE_HEADERS,
  type PrivateHeaderRule,
  privateHeaderRule,
} from "../src/detection-header-names.js";
import { HdArgumentError } from "../src/errors.js";
import { silentLogger } from "../src/logger.js";
import { handsetDetection } from "../src/middleware/handset-detection.js";
import { fakeCloud } from "./middleware/helpers.js";
import { optionError } from "./support/option-error.js";

/** Names an operator gateway, proxy, CDN or app may add, each with the rule that must refuse it. */
const SENSITIVE: ReadonlyArray<readonly [string, PrivateHeaderRule]> = [
  ["x-msisdn", "subscriber-id"],
  ["x-wap-msisdn", "subscriber-id"],
  ["x-nokia-msisdn", "subscriber-id"],
  ["x-h3g-msisdn", "subscriber-id"],
  ["msisdn", "subscriber-id"],
  ["x-imsi", "subscriber-id"],
  ["x-huawei-imsi", "subscriber-id"],
  ["x-up-subno", "subscriber-id"],
  ["x-wap-clientid", "subscriber-id"],
  ["x-client-id", "subscriber-id"],
  ["x-up-calling-line-id", "subscriber-id"],
  ["x-network-info", "subscriber-id"],
  ["x-vf-acr", "subscriber-id"],
  ["x-uidh", "subscriber-id"],
  ["x-user-id", "subscriber-id"],
  ["x-subscriber-info", "subscriber-id"],
  ["x-jphone-uid", "subscriber-id"],
  ["x-imei", "device-id"],
  ["x-device-id", "device-id"],
  ["x-udid", "device-id"],
  ["x-dcmguid", "device-id"],
  ["x-advertising-id", "device-id"],
  ["x-android-id", "device-id"],
  ["true-client-ip", "address"],
  ["x-real-ip", "address"],
  ["x-client-ip", "address"],
  ["cf-connecting-ip", "address"],
  ["fastly-client-ip", "address"],
  ["x-cluster-client-ip", "address"],
  ["x-wap-network-client-ip", "address"],
  ["x-originating-ip", "address"],
  ["x-forwarded-for", "address"],
  ["x-forwarded-host", "address"],
  ["forwarded", "address"],
  ["x-remote-addr", "address"],
  ["x-ip-address", "address"],
  ["authorization", "credential"],
  ["proxy-authorization", "credential"],
  ["x-auth-token", "credential"],
  ["x-access-token", "credential"],
  ["x-amz-security-token", "credential"],
  ["x-client-secret", "credential"],
  ["x-password", "credential"],
  ["x-csrf-token", "credential"],
  ["x-hub-signature", "credential"],
  ["cookie", "session"],
  ["set-cookie", "session"],
  ["x-session-id", "session"],
  ["x-sid", "session"],
  ["x-api-key", "key"],
  ["x-apikey", "key"],
  ["ocp-apim-subscription-key", "key"],
  ["x-functions-key", "key"],
];

/** Names that carry a device's description: allowed. */
const DEVICE_DESCRIPTIONS = [...DETECTION_HEADERS, "x-att-deviceid", "sec-ch-ua-model", "x-wap-profile-diff"];

const client = fakeCloud();

describe("privateHeaderRule", () => {
  it.each(SENSITIVE)("refuses %s by the %s rule", (name, rule) => {
    expect(privateHeaderRule(name)?.rule).toBe(rule);
  });

  it("refuses every well-known private header by a rule", () => {
    for (const name of PRIVATE_HEADERS) expect(privateHeaderRule(name), name).toBeDefined();
  });

  it("accepts every detection header and the device description headers", () => {
    expect(SENSITIVE.length).toBeGreaterThanOrEqual(40);
    for (const name of DEVICE_DESCRIPTIONS) expect(privateHeaderRule(name), name).toBeUndefined();
  });
});

describe("the middleware's allowHeaders", () => {
  it("refuses each sensitive name, naming the option and the rule", () => {
    for (const [name, rule] of SENSITIVE) {
      const error = optionError(() =>
        handsetDetection({ client, allowHeaders: [name], logger: silentLogger }),
      );
      expect(error.option, name).toBe("allowHeaders");
      expect(error.message, name).toContain(`"${rule}" rule`);
      expect(error.message, name).toContain(name);
    }
  });

  it("accepts every detection header and the device description headers", () => {
    expect(() =>
      handsetDetection({ client, allowHeaders: DEVICE_DESCRIPTIONS, logger: silentLogger }),
    ).not.toThrow();
  });
});

describe("HdClient's allowHeaders", () => {
  const options = {
    username: "u",
    secret: "s",
    siteId: 1,
    baseUrl: "http://127.0.0.1:9",
    logger: silentLogger,
  };

  it("refuses each sensitive name as an option, naming the rule", () => {
    for (const [name, rule] of SENSITIVE) {
      const error = optionError(() => new HdClient({ ...options, allowHeaders: [name] }));
      expect(error.option, name).toBe("allowHeaders");
      expect(error.message, name).toContain(`"${rule}" rule`);
    }
  });

  it("refuses each sensitive name a detect call allows, naming the rule, before sending anything", async () => {
    const hd = new HdClient({ ...options, retries: 0 });
    for (const [name, rule] of SENSITIVE) {
      const failure = await hd
        .detect({ "user-agent": "x" }, { allowHeaders: [name] })
        .catch((e: unknown) => e);
      expect(failure, name).toBeInstanceOf(HdArgumentError);
      expect((failure as Error).message, name).toContain(`"${rule}" rule`);
    }
    await hd.close();
  });

  it("accepts every detection header and the device description headers", () => {
    expect(() => new HdClient({ ...options, allowHeaders: DEVICE_DESCRIPTIONS })).not.toThrow();
  });
});

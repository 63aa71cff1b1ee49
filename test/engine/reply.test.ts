import { describe, expect, it } from "vitest";
import { REPLY_SLOTS } from "../../src/engine/engine-data.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { foundReply } from "../../src/engine/reply.js";
import { silentLogger } from "../../src/logger.js";
import type { DeviceSpecs, ExtraSpecs } from "../../src/types.js";
import { RULE_TREES, specsDownload } from "./fixtures.js";

describe("foundReply", () => {
  // More devices, and more source pairs for one device, than the reply table has slots: some
  // must share a slot, so each pair is asked for again after another took its slot.
  const deviceCount = REPLY_SLOTS + 500;
  const extraCount = Math.ceil(Math.sqrt(REPLY_SLOTS)) + 1;
  const devices: Record<string, Partial<Record<keyof DeviceSpecs, string>>> = {};
  for (let d = 0; d < deviceCount; d++) devices[String(d)] = { general_type: d % 7 === 0 ? "" : "Tablet" };
  const extras: Record<string, ExtraSpecs> = {};
  for (let x = 0; x < extraCount; x++) {
    extras[`x${x}`] = {
      general_platform: `Platform ${x}`,
      general_platform_version: `${x}.0`,
      general_browser: `Browser ${x}`,
      general_browser_version: `${x}.1`,
    };
  }
  const data = LocalEngine.buildData(specsDownload(devices, extras), RULE_TREES, { logger: silentLogger });

  /** What is wrong with the reply for this device and sources, or "" when nothing is. */
  const wrong = (device: number, platformFrom: number, browserFrom: number): string => {
    const reply = foundReply(data, device, platformFrom, browserFrom);
    const specs = reply.hd_specs as DeviceSpecs;
    const record = data.specs.device(device);
    const platform = platformFrom < 0 ? record : data.specs.extras[platformFrom];
    const browser = browserFrom < 0 ? record : data.specs.extras[browserFrom];
    const ok =
      specs.general_model === record.general_model &&
      specs.general_platform === platform?.general_platform &&
      specs.general_platform_version === platform?.general_platform_version &&
      specs.general_browser === browser?.general_browser &&
      specs.general_browser_version === browser?.general_browser_version &&
      reply.class === (record.general_type === "" ? "Unknown" : record.general_type) &&
      reply.status === 0;
    return ok ? "" : `device ${device}, sources ${platformFrom}/${browserFrom}: ${JSON.stringify(reply)}`;
  };

  it("answers every device its own record, whichever devices share a slot", () => {
    const problems: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (let device = 0; device < deviceCount; device++) {
        const problem = wrong(device, -1, -1);
        if (problem !== "") problems.push(problem);
      }
    }
    expect(problems.slice(0, 3)).toEqual([]);
  });

  it("answers every source pair of a device its own merge, whichever pairs share a slot", () => {
    const problems: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (let platformFrom = -1; platformFrom < extraCount; platformFrom++) {
        for (let browserFrom = -1; browserFrom < extraCount; browserFrom++) {
          const problem = wrong(3, platformFrom, browserFrom);
          if (problem !== "") problems.push(problem);
        }
      }
    }
    expect(problems.slice(0, 3)).toEqual([]);
  });

  it("gives the record itself when no extra is merged in, and one frozen copy per merge", () => {
    const record = data.specs.device(5);
    expect(foundReply(data, 5, -1, -1).hd_specs).toBe(record);
    const merged = foundReply(data, 5, 0, 1).hd_specs;
    expect(merged).not.toBe(record);
    expect(Object.isFrozen(merged)).toBe(true);
    expect(foundReply(data, 5, 2, 3).hd_specs).not.toBe(merged);
    expect(foundReply(data, 5, 0, 1).hd_specs).toBe(merged);
  });
});

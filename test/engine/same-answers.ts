// Compares two local engines call by call: detect, explain, the device step and every device call (not a test file itself).

import { expect } from "vitest";
import type { LocalEngine } from "../../src/engine/local-engine.js";
import type { HeadersInput } from "../../src/types.js";

/** What differs between two engines over `headerSets` and their device calls, as readable lines (none: the same). */
export function differences(a: LocalEngine, b: LocalEngine, headerSets: readonly HeadersInput[]): string[] {
  const out: string[] = [];
  const same = (what: string, x: unknown, y: unknown) => {
    const left = JSON.stringify(x);
    const right = JSON.stringify(y);
    if (left !== right) out.push(`${what}: ${left.slice(0, 200)} != ${right.slice(0, 200)}`);
  };
  headerSets.forEach((headers, i) => {
    same(`detect #${i}`, a.detect(headers), b.detect(headers));
    same(`explain #${i}`, a.explain(headers), b.explain(headers));
    same(`deviceStep #${i}`, a.deviceStep(headers), b.deviceStep(headers));
  });
  const vendors = a.vendors();
  same("vendors", vendors, b.vendors());
  for (const vendor of [...vendors.vendor, "no such vendor"]) {
    const models = a.models(vendor);
    same(`models ${vendor}`, models, b.models(vendor.toUpperCase()));
    // A few models each: a view reads every record, and the full-size data has thousands of models.
    const some =
      models.model.length <= 4 ? models.model : [...models.model.slice(0, 3), models.model.at(-1) as string];
    for (const model of some) same(`view ${vendor} ${model}`, a.view(vendor, model), b.view(vendor, model));
  }
  same("view of nothing", a.view("no such vendor", "x"), b.view("no such vendor", "x"));
  for (const [property, value] of [
    ["general_vendor", "a"],
    ["network", "gsm"],
    ["display_x", "1"],
    ["features", "e"],
    ["no_such_property", "x"],
  ] as const) {
    same(`whatHas ${property}`, a.whatHas(property, value), b.whatHas(property, value));
  }
  same("devices", a.devices(), b.devices());
  const info = (engine: LocalEngine) => {
    const {
      specsGenerated,
      treesGenerated,
      devices,
      extras,
      trees,
      missingDeviceIds,
      reorderedKeys,
      matcher,
    } = engine.dataInfo;
    return {
      specsGenerated,
      treesGenerated,
      devices,
      extras,
      trees,
      missingDeviceIds,
      reorderedKeys,
      matcher,
    };
  };
  same("dataInfo", info(a), info(b));
  return out;
}

/** Asserts that two engines answer every call alike, naming the first differences. */
export function expectSameAnswers(a: LocalEngine, b: LocalEngine, headerSets: readonly HeadersInput[]): void {
  expect(differences(a, b, headerSets).slice(0, 10)).toEqual([]);
}

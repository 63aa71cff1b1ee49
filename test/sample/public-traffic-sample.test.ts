// Measures, on the public traffic cases in ../shared/traffic, how many requests naming a sample-database device get it named.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";
import { handsetDetection } from "../../src/middleware/handset-detection.js";
import { callMiddleware } from "../middleware/call-middleware.js";
import { missingShared, SHARED_DIR } from "../support/requirements.js";

const CASES = join(SHARED_DIR, "traffic/public-cases.jsonl");
const missing = missingShared(CASES);
if (missing !== undefined) console.warn(`[test/sample/public-traffic-sample] skipped: ${missing}.`);

/** What this measure reads of a case (see ../shared/traffic/README.md). */
interface TrafficCase {
  readonly id: string;
  readonly headers: Record<string, string>;
  readonly tags: readonly string[];
  readonly expected: {
    readonly sample_id?: string | null;
    readonly sample_vendor?: string | null;
    readonly sample_model?: string | null;
  };
}

/** The README's comparison: ignoring case and punctuation. */
const same = (a: string | undefined, b: string | null | undefined): boolean =>
  (a ?? "").toLowerCase().replace(/[^a-z0-9]/g, "") === (b ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");

/** At least this share of the requests whose headers name a sample device must name it. */
const TARGET = 0.95;

describe.skipIf(missing !== undefined)("sample-database devices named on the public traffic cases", () => {
  it(`names at least ${TARGET * 100} % of the sample devices that a request's headers name`, async () => {
    const cases = existsSync(CASES)
      ? readFileSync(CASES, "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line) as TrafficCase)
          .filter((c) => typeof c.expected.sample_id === "string")
      : [];
    const middleware = handsetDetection({ engine: sampleEngine(), cacheSize: 0, logger: silentLogger });
    let named = 0;
    let nameable = 0;
    let firstVisits = 0;
    const misses: string[] = [];
    for (const c of cases) {
      // A first visit of a reduced user-agent carries only the low-entropy hints: nothing names
      // the model, so no detector can name it. Counted apart.
      const firstVisit = c.tags.includes("low-entropy-only");
      const { device } = await callMiddleware(middleware, c.headers);
      const hit =
        same(device.specs.general_vendor, c.expected.sample_vendor) &&
        same(device.specs.general_model, c.expected.sample_model);
      if (firstVisit) {
        firstVisits++;
        if (hit) named++;
        continue;
      }
      nameable++;
      if (hit) named++;
      else misses.push(`${c.id}: ${c.expected.sample_model} → ${device.specs.general_model}`);
    }
    const share = (n: number, of: number) => `${((100 * n) / Math.max(of, 1)).toFixed(1)} %`;
    console.log(
      `sample-database devices named: ${share(nameable - misses.length, nameable)} of ${nameable} requests ` +
        `whose headers name one; ${share(named, cases.length)} of all ${cases.length} ` +
        `(${firstVisits} first visits with low-entropy hints only, which name no model)` +
        (misses.length > 0 ? `\nnot named:\n  ${misses.join("\n  ")}` : ""),
    );
    expect(cases.length).toBeGreaterThan(100);
    expect((nameable - misses.length) / nameable).toBeGreaterThanOrEqual(TARGET);
  }, 60_000);
});

// What a worker sends of its counts is what it counted; the counts of several workers add up.

import { describe, expect, it } from "vitest";
import {
  BUCKET_WIDTHS_MS,
  boundPeriods,
  type Counts,
  emptyCounts,
  MAX_BUCKETS,
  packCounts,
  sumCounts,
  sumPackedCounts,
  unpackCounts,
} from "../../src/report/counts.js";

function counted(devicesByPeriod: Record<number, string[]>, requests = 3): Counts {
  const counts = emptyCounts();
  counts.requests = requests;
  counts.models.set("Apple\tiPhone", requests);
  for (const [index, devices] of Object.entries(devicesByPeriod)) {
    counts.periods.set(Number(index), { requests, devices: new Set(devices) });
  }
  return counts;
}

describe("packCounts and unpackCounts", () => {
  it("give back the counts a worker packed, each period's devices included", () => {
    const counts = counted({ 10: ["Apple\tiPhone", "Samsung\tSM-S918B"], 11: ["Apple\tiPhone"], 12: [] });
    const packed = packCounts(counts);
    expect(packed.deviceKeys).toEqual(["Apple\tiPhone", "Samsung\tSM-S918B"]);
    expect(packed.periods.every(({ devices }) => devices instanceof Int32Array)).toBe(true);
    expect(unpackCounts(structuredClone(packed))).toEqual(counts);
  });
});

describe("sumCounts", () => {
  it("adds requests and unions each period's devices", () => {
    const sum = sumCounts([
      counted({ 10: ["Apple\tiPhone"], 11: ["Apple\tiPhone"] }, 2),
      counted({ 10: ["Samsung\tSM-S918B", "Apple\tiPhone"], 12: ["Google\tPixel 9"] }, 5),
    ]);
    expect(sum.requests).toBe(7);
    expect(sum.models.get("Apple\tiPhone")).toBe(7);
    expect([...sum.periods].map(([index, p]) => [index, p.requests, [...p.devices].sort()])).toEqual([
      [10, 7, ["Apple\tiPhone", "Samsung\tSM-S918B"]],
      [11, 2, ["Apple\tiPhone"]],
      [12, 5, ["Google\tPixel 9"]],
    ]);
  });

  it("of nothing is nothing counted", () => {
    expect(sumCounts([])).toEqual(emptyCounts());
  });
});

describe("sumPackedCounts", () => {
  it("sums what workers sent as sumCounts sums the counts they packed", () => {
    const workers = () => [
      counted({ 10: ["Apple\tiPhone"], 11: ["Apple\tiPhone"] }, 2),
      counted({ 10: ["Samsung\tSM-S918B", "Apple\tiPhone"], 12: ["Google\tPixel 9"] }, 5),
      counted({ 12: ["Apple\tiPhone"] }, 1),
    ];
    expect(sumPackedCounts(workers().map(packCounts))).toEqual(sumCounts(workers()));
    expect(sumPackedCounts([])).toEqual(emptyCounts());
  });

  it("widens the periods when the workers' buckets differ", () => {
    const daily = counted({ 1: ["Apple\tiPhone"] }, 4);
    daily.bucketMs = BUCKET_WIDTHS_MS[1];
    const hourly = () => counted({ 30: ["Google\tPixel 9"], 31: ["Apple\tiPhone"] }, 2);
    const sum = sumPackedCounts([packCounts(hourly()), packCounts(daily)]);
    expect(sum).toEqual(sumCounts([hourly(), structuredClone(daily)]));
    expect(sum.bucketMs).toBe(BUCKET_WIDTHS_MS[1]);
    expect([...sum.periods].map(([index, p]) => [index, p.requests, p.devices.size])).toEqual([[1, 8, 2]]);
  });
});

describe("boundPeriods", () => {
  const span = (counts: Counts) => {
    const indexes = [...counts.periods.keys()];
    return Math.max(...indexes) - Math.min(...indexes) + 1;
  };

  it("widens when the periods span more than MAX_BUCKETS, however few of them hold requests", () => {
    // Two hours a year apart: 2 periods, but 8,761 rows of time line at an hour each.
    const counts = counted({ 0: ["Apple\tiPhone"], 8760: ["Apple\tiPhone"] });
    boundPeriods(counts);
    expect(counts.bucketMs).toBe(BUCKET_WIDTHS_MS[1]);
    expect(span(counts)).toBeLessThanOrEqual(MAX_BUCKETS);
    expect([...counts.periods.values()].map((period) => period.requests)).toEqual([3, 3]);
  });

  it("doubles four weeks for spans past some 31 years (a stray 1970 time in a 2026 log)", () => {
    const counts = counted({ 0: [], [Math.floor(Date.UTC(2026, 10, 1) / BUCKET_WIDTHS_MS[0])]: [] });
    boundPeriods(counts);
    expect(counts.bucketMs).toBe(2 * BUCKET_WIDTHS_MS[3]);
    expect(span(counts)).toBeLessThanOrEqual(MAX_BUCKETS);
  });

  it("keeps the width while the span fits, whatever the number of periods", () => {
    const counts = counted(Object.fromEntries(Array.from({ length: MAX_BUCKETS }, (_, i) => [i, []])));
    boundPeriods(counts);
    expect(counts.bucketMs).toBe(BUCKET_WIDTHS_MS[0]);
  });
});

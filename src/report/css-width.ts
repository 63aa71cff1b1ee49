// The CSS width a device's visitors see: measured by the page script, else estimated from the record's display.

import type { ReportDevice } from "./detect-line.js";

/** Device pixels per CSS pixel that phones and tablets use; Apple's are 1, 2 and 3 only. */
const ANDROID_RATIOS = [1, 1.5, 2, 2.625, 3, 3.5, 4] as const;
const APPLE_RATIOS = [1, 2, 3] as const;
/** Pixels per inch at a ratio of 1: Android's density-independent pixel, Apple's point. */
const ANDROID_BASE_PPI = 160;
const APPLE_BASE_PPI = 163;

const PORTABLE: ReadonlySet<string> = new Set(["Mobile", "Tablet"]);

function nearest(ratios: readonly number[], value: number): number {
  let best = ratios[0] as number;
  for (const ratio of ratios) if (Math.abs(ratio - value) < Math.abs(best - value)) best = ratio;
  return best;
}

/**
 * The screen width in CSS pixels: the page script's measurement when the log carries its
 * cookie; else, for phones and tablets, the short side of the record's display divided by the
 * pixel ratio its density suggests (portrait); for other classes the long side at a ratio of 1.
 * 0 when the record gives no display.
 */
export function cssWidth(device: ReportDevice): number {
  if (device.screen !== undefined) return device.screen.width;
  const { displayX: x, displayY: y } = device;
  if (x <= 0 || y <= 0) return 0;
  if (!PORTABLE.has(device.class)) return Math.max(x, y);
  if (device.displayInches <= 0) return 0;
  const ppi = Math.hypot(x, y) / device.displayInches;
  const apple = device.vendor === "Apple";
  const ratio = nearest(
    apple ? APPLE_RATIOS : ANDROID_RATIOS,
    ppi / (apple ? APPLE_BASE_PPI : ANDROID_BASE_PPI),
  );
  return Math.round(Math.min(x, y) / ratio);
}

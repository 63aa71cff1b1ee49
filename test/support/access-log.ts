// Access-log lines for the report's tests and benchmark: combined-format lines, and a realistic user-agent mix.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { seededRandom } from "./seeded-random.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** A time as the combined format writes it, in UTC: `10/Oct/2026:13:55:36 +0000`. */
function clfTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

/** One nginx/Apache combined line. */
export function combinedLine(ms: number, path: string, userAgent: string, ip = "203.0.113.7"): string {
  return `${ip} - - [${clfTime(ms)}] "GET ${path} HTTP/1.1" 200 5120 "https://example.com/" "${userAgent.replaceAll('"', '\\"')}"`;
}

/** Real user-agents of the sample database, by device name (`Apple iPhone`). */
function sampleUserAgents(): Map<string, readonly string[]> {
  const file = fileURLToPath(new URL("../../data/sample/useragents.json", import.meta.url));
  const { devices } = JSON.parse(readFileSync(file, "utf8")) as {
    devices: Record<string, { device: string; userAgents: string[] }>;
  };
  return new Map(Object.values(devices).map((entry) => [entry.device, entry.userAgents]));
}

/** Real crawler user-agents (the `crawler-user-agents` list's instances). */
function crawlerUserAgents(): string[] {
  const list = createRequire(import.meta.url)("crawler-user-agents") as Array<{ instances?: string[] }>;
  return list
    .flatMap((entry) => entry.instances ?? [])
    .filter((ua) => !ua.includes("\n") && !ua.includes('"'));
}

/** Varied synthetic visitors: Chrome on Android models, iPhones and desktops over many versions. */
function syntheticVisitors(count: number, random: () => number): string[] {
  const out = new Set<string>();
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  while (out.size < count) {
    const chrome = `${110 + Math.floor(random() * 22)}.0.${5000 + Math.floor(random() * 1500)}.${Math.floor(random() * 200)}`;
    const kind = random();
    if (kind < 0.45) {
      const model = `${pick(["SM-A", "SM-S", "SM-G", "moto g", "Redmi Note ", "CPH", "RMX", "Pixel "])}${Math.floor(random() * 900) + 10}${pick(["B", "F", "U", ""])}`;
      out.add(
        `Mozilla/5.0 (Linux; Android ${pick(["11", "12", "13", "14", "15"])}; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome} Mobile Safari/537.36`,
      );
    } else if (kind < 0.75) {
      const ios = `${pick(["15", "16", "17", "18"])}_${Math.floor(random() * 7)}`;
      out.add(
        `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${ios.replace("_", ".")} Mobile/15E148 Safari/604.1 ${pick(["", "Instagram 300.0", "FBAV/450.0"])}${Math.floor(random() * 1000)}`.trim(),
      );
    } else {
      out.add(
        `Mozilla/5.0 (${pick(["Windows NT 10.0; Win64; x64", "Macintosh; Intel Mac OS X 10_15_7", "X11; Linux x86_64"])}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome} Safari/537.36${pick(["", ` Edg/${chrome}`, ` OPR/${chrome}`])}`,
      );
    }
  }
  return [...out];
}

/** A Zipf sampler over `n` ranks (exponent 1): rank 0 is the most frequent. */
function zipfSampler(n: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    sum += 1 / (k + 1);
    cumulative[k] = sum;
  }
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

/** A realistic mix: Zipf over `distinct` user-agents for visitors, `crawlerShare` of lines from crawlers. */
export function realisticMix(distinct: number, crawlerShare: number, seed = 28): () => string {
  const random = seededRandom(seed);
  const real = [...sampleUserAgents().values()].flat();
  const crawlers = crawlerUserAgents();
  const visitors = [
    ...real,
    ...syntheticVisitors(Math.max(0, distinct - real.length - crawlers.length), random),
  ];
  // Shuffled so that real and synthetic user-agents share the frequent ranks.
  for (let i = visitors.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [visitors[i], visitors[j]] = [visitors[j] as string, visitors[i] as string];
  }
  const visitorRank = zipfSampler(visitors.length, random);
  const crawlerRank = zipfSampler(crawlers.length, random);
  return () =>
    random() < crawlerShare ? (crawlers[crawlerRank()] as string) : (visitors[visitorRank()] as string);
}

// The report page in real headless Chromium: nothing requested, readable on a phone, tables equal to the JSON, CSV copied.

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/report/html.js";
import { createReport } from "../../src/report/report.js";
import type { ReportResult } from "../../src/report/result.js";
import { formatCount, formatShare } from "../../src/report/svg-charts.js";
import { reportTables, tableCsv } from "../../src/report/tables.js";
import { combinedLine, realisticMix } from "../support/access-log.js";
import { launchChromium } from "../support/chromium.js";
import { missingChromium, skipWhenMissing } from "../support/requirements.js";

const ARTIFACTS = fileURLToPath(new URL("../artifacts/report/", import.meta.url));
const skip = skipWhenMissing("test/report/report-page.e2e", missingChromium());

/** Runs in the page: each section's table as text cells, by section id. */
function tablesInPage(): Record<string, string[][]> {
  const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<PageElement> } })
    .document;
  const out: Record<string, string[][]> = {};
  for (const section of doc.querySelectorAll("section")) {
    out[section.id] = [...section.querySelectorAll("tbody tr")].map((row) =>
      [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? ""),
    );
  }
  return out;
}

/** The parts of a DOM element the page functions read (the project has no DOM types). */
interface PageElement {
  id: string;
  textContent: string | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

/** Runs in the page: whether it is wider than the viewport. */
function overflows(): boolean {
  const page = globalThis as unknown as {
    document: { documentElement: { scrollWidth: number } };
    innerWidth: number;
  };
  return page.document.documentElement.scrollWidth > page.innerWidth;
}

describe.skipIf(skip)("the report page in headless Chromium", () => {
  let dir: string;
  let result: ReportResult;
  let url: string;
  let browser: BrowserContext | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hd-report-page-"));
    const next = realisticMix(2000, 0.05, 3);
    const report = createReport();
    const start = Date.UTC(2026, 9, 1);
    for (let i = 0; i < 20_000; i++) report.add(combinedLine(start + i * 120_000, "/", next()));
    report.add("a line that does not parse");
    result = report.result();
    const file = join(dir, "report.html");
    await writeFile(file, renderReportHtml(result));
    url = pathToFileURL(file).href;
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(name: string, viewport: { width: number; height: number }, mobile: boolean) {
    browser = await launchChromium(join(dir, `profile-${name}`), {
      viewport,
      isMobile: mobile,
      hasTouch: mobile,
      deviceScaleFactor: mobile ? 2 : 1,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const requests: string[] = [];
    browser.on("request", (request) => requests.push(request.url()));
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(url, { waitUntil: "load" });
    return { page, requests };
  }

  it("shows on a desktop every table as the JSON has it, requests nothing else, and copies a table as CSV", async () => {
    const { page, requests } = await open("desktop", { width: 1280, height: 900 }, false);
    try {
      await page.screenshot({ path: join(ARTIFACTS, "report-desktop.png"), fullPage: true });
      const shown = await page.evaluate(tablesInPage);
      for (const table of reportTables(result)) {
        const expected = table.rows.map((row) =>
          row.map((value, i) => {
            const kind = table.columns[i]?.kind;
            return typeof value === "number"
              ? kind === "share"
                ? formatShare(value)
                : formatCount(value)
              : value;
          }),
        );
        expect(shown[table.id], table.id).toEqual(expected);
      }
      expect(await page.locator("svg.chart").count()).toBeGreaterThan(8);
      await page.locator("#vendors a[data-csv]").click();
      await expect.poll(() => page.locator("#vendors a[data-csv]").textContent()).toBe("Copied");
      const vendors = reportTables(result).find((table) => table.id === "vendors");
      expect(
        await page.evaluate(() =>
          (
            globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
          ).navigator.clipboard.readText(),
        ),
      ).toBe(vendors && tableCsv(vendors));
      // The page's own file is the only request, whatever it draws.
      expect(requests).toEqual([url]);
    } finally {
      await browser?.close();
      browser = undefined;
    }
  });

  it("fits a phone's width and prints without the links", async () => {
    const { page, requests } = await open("phone", { width: 390, height: 844 }, true);
    try {
      expect(await page.evaluate(overflows)).toBe(false);
      await page.screenshot({ path: join(ARTIFACTS, "report-phone.png") });
      await page.emulateMedia({ media: "print" });
      expect(await page.locator(".actions").first().isVisible()).toBe(false);
      await page.pdf({ path: join(ARTIFACTS, "report.pdf") }).catch(() => undefined);
      expect(requests).toEqual([url]);
    } finally {
      await browser?.close();
      browser = undefined;
    }
  });
});

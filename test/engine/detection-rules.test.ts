import { describe, expect, it, vi } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import type { Logger } from "../../src/logger.js";
import { silentLogger } from "../../src/logger.js";
import type { HeadersInput, TreesDownload } from "../../src/types.js";
import { RULE_TREES, ruleSpecs, treesText } from "./fixtures.js";

const engines = {
  naive: LocalEngine.fromData(ruleSpecs(), RULE_TREES, { logger: silentLogger, matcher: "naive" }),
  compiled: LocalEngine.fromData(ruleSpecs(), RULE_TREES, { logger: silentLogger, matcher: "compiled" }),
};

describe.each(["naive", "compiled"] as const)("local detection rules (%s matcher)", (kind) => {
  const engine = engines[kind];
  const ids = (headers: HeadersInput) => {
    const { deviceId, platformId, browserId } = engine.explain(headers);
    return { deviceId, platformId, browserId };
  };
  const device = (headers: HeadersInput) => engine.explain(headers).deviceId;

  it("walks sieve keys in document order, integer-like keys included", () => {
    expect(device({ "user-agent": "Nokia6620" })).toBe("10");
    expect(device({ "user-agent": "abcd12345" })).toBe("16");
  });

  it("keeps walking after a filter whose matches all miss", () => {
    const why = engine.explain({ "user-agent": "Linux; Android; LinuxPhone" });
    expect(why.deviceId).toBe("14");
    expect(why.device).toMatchObject({
      tree: "user-agent0",
      filter: "linux",
      match: "linuxphone",
      order: "100",
    });
  });

  it("normalises values for device trees: ASCII lower case, 11 characters deleted", () => {
    expect(device({ "user-agent": "NO-KIA_66/20" })).toBe("10");
    expect(device({ "user-agent": ` n.o,k:i"a'6#6\\2 0` })).toBe("10");
  });

  it("matches nothing when the normalised value is shorter than 4 UTF-8 bytes", () => {
    expect(device({ "user-agent": "a-b" })).toBeNull();
    expect(device({ "user-agent": "a b c" })).toBeNull();
    expect(device({ "user-agent": "ab cd" })).toBe("40");
    expect(device({ "user-agent": "é" })).toBeNull();
    expect(device({ "user-agent": "éé" })).toBe("41");
    expect(device({ "user-agent": "ab é" })).toBe("40");
    expect(device({ "user-agent": "aé" })).toBeNull();
  });

  it("looks x-wap-profile up in profile0, not in x-wap-profile0", () => {
    expect(device({ "x-wap-profile": '"http://example.com/a.xml"' })).toBe("30");
    expect(device({ "x-wap-profile": "http://example.com/b.xml" })).toBeNull();
    const why = engine.explain({ "x-wap-profile": "http://example.com/a.xml" });
    expect(why.device).toMatchObject({ tree: "profile0", header: "x-wap-profile", method: "direct" });
    expect(why.deviceStep).toBe(3);
  });

  it("prefers x-operamini-phone, then profile, then x-wap-profile, then the sieve", () => {
    const all = {
      "x-operamini-phone": "Nokia # 6620",
      profile: "http://example.com/profile.xml",
      "x-wap-profile": "http://example.com/a.xml",
      "user-agent": "HeaderOrder uamatch",
    };
    expect(device(all)).toBe("35");
    expect(device({ ...all, "x-operamini-phone": "Unknown # Phone" })).toBe("31");
    expect(device({ ...all, "x-operamini-phone": "Unknown # Phone", profile: "none" })).toBe("30");
    expect(device({ ...all, "x-operamini-phone": "x", profile: "y", "x-wap-profile": "z" })).toBe("22");
  });

  it("skips x-operamini-phone when it says `? # ?` and carries on with the other headers", () => {
    expect(device({ "x-operamini-phone": "? # ?", "user-agent": "HeaderOrder uamatch" })).toBe("22");
    expect(device({ "x-operamini-phone": "  ? # ?  ", "user-agent": "HeaderOrder uamatch" })).toBe("22");
    expect(engine.detect({ "x-operamini-phone": "? # ?" }).status).toBe(301);
  });

  it("does not sieve the headers that the direct steps used", () => {
    expect(device({ "x-operamini-phone": "HeaderOrder XOperaMiniPhone" })).toBeNull();
    expect(device({ "x-wap-profile": "HeaderOrder xaaamatch" })).toBeNull();
    expect(device({ "x-aaa": "HeaderOrder xaaamatch" })).toBe("23");
    expect(device({ profile: "HeaderOrder profilematch" })).toBeNull();
    expect(device({ accept: "HeaderOrder uamatch" })).toBeNull();
  });

  it("sieves x-operamini-phone-ua, x-mobile-ua, user-agent, then other x- headers alphabetically", () => {
    const headers = {
      "x-bbb": "HeaderOrder xbbbmatch",
      "x-aaa": "HeaderOrder xaaamatch",
      "user-agent": "HeaderOrder uamatch",
      "x-mobile-ua": "HeaderOrder mobuamatch",
      "x-operamini-phone-ua": "HeaderOrder opuamatch",
    };
    expect(device(headers)).toBe("20");
    expect(device({ ...headers, "x-operamini-phone-ua": "none" })).toBe("21");
    expect(device({ ...headers, "x-operamini-phone-ua": "none", "x-mobile-ua": "none" })).toBe("22");
    expect(device({ "x-bbb": headers["x-bbb"], "x-aaa": headers["x-aaa"], "user-agent": "none" })).toBe("23");
    expect(device({ "x-bbb": headers["x-bbb"] })).toBe("24");
  });

  it("tells the step that found the device as explain does, for every step", () => {
    const cases: HeadersInput[] = [
      { "x-operamini-phone": "Nokia # 6620" },
      { profile: "http://example.com/profile.xml" },
      { "x-wap-profile": "http://example.com/a.xml" },
      { "user-agent": "Linux; Android; LinuxPhone" },
      { "user-agent": "Generic Phone" },
      { "user-agent": "a-b" },
      {},
    ];
    const steps = cases.map((headers) => engine.deviceStep(headers));
    expect(steps).toEqual(cases.map((headers) => engine.explain(headers).deviceStep));
    expect(new Set(steps)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
  });

  it("tells the step of the reply it answered last without running again, and runs for any other", () => {
    const sieve = { "user-agent": "Linux; Android; LinuxPhone" };
    const generic = { "user-agent": "Generic Phone" };
    const runs = vi.spyOn((engine as unknown as { resolver: { run: () => void } }).resolver, "run");
    const sieveReply = engine.detect(sieve);
    expect(sieveReply.status).toBe(0);
    engine.explain(generic); // runs the steps for other headers: the reply is still known
    expect(engine.deviceStep(sieve, sieveReply)).toBe(4);
    const genericReply = engine.detect(generic);
    expect(engine.deviceStep(generic, genericReply)).toBe(5);
    expect(runs).toHaveBeenCalledTimes(3); // two detections and the explanation, nothing more
    // No longer the last reply: the steps run for the headers given.
    expect(engine.deviceStep(sieve, sieveReply)).toBe(4);
    // A reply that only looks the same is not the one answered.
    expect(engine.deviceStep(sieve, { ...genericReply })).toBe(4);
    expect(runs).toHaveBeenCalledTimes(5);
    runs.mockRestore();
  });

  it("falls back to user-agent1 with the user-agent only, after every other header", () => {
    expect(device({ "user-agent": "Generic Phone" })).toBe("50");
    expect(engine.explain({ "user-agent": "Generic Phone" }).device).toMatchObject({ tree: "user-agent1" });
    expect(device({ "user-agent": "Generic Phone", "x-aaa": "HeaderOrder xaaamatch" })).toBe("23");
    expect(device({ "x-mobile-ua": "mobuamatch" })).toBeNull();
  });

  it("answers 301 Nothing Found with class Unknown and looks no extras up", () => {
    expect(engine.detect({ "user-agent": "Mozilla/5.0 (Windows NT 10.0) Safari" })).toEqual({
      class: "Unknown",
      status: 301,
      message: "Nothing Found",
    });
    expect(ids({ "user-agent": "Mozilla/5.0 Safari" })).toEqual({
      deviceId: null,
      platformId: null,
      browserId: null,
    });
    expect(engine.detect({}).status).toBe(301);
  });

  it("answers 255 naming the id when the trees point at a device the specs lack", () => {
    const reply = engine.detect({ "user-agent": "MissingRecord" });
    expect(reply.status).toBe(255);
    expect(reply.message).toContain("60");
    expect(reply.hd_specs).toBeUndefined();
    const why = engine.explain({ "user-agent": "MissingRecord" });
    expect(why).toMatchObject({ deviceId: "60", status: 255 });
  });

  it("answers the direct steps with the record of their key's id, or 255 naming it", () => {
    const model = (headers: HeadersInput) => engine.detect(headers).hd_specs?.general_model;
    expect(model({ "x-operamini-phone": "Nokia # 6620" })).toBe("Model 35");
    expect(model({ "x-operamini-phone": "Nokia # N95" })).toBe("Model 36");
    expect(model({ profile: "http://example.com/profile.xml" })).toBe("Model 31");
    expect(model({ "x-wap-profile": "http://example.com/a.xml" })).toBe("Model 30");
    expect(model({ "x-wap-profile": "constructor" })).toBe("Model 32");
    const gone = LocalEngine.fromData(
      ruleSpecs(),
      treesText('{"profile0":{"httpexamplecomgonexml":"61"},"x-operamini-phone0":{"nokian95":"62"}}'),
      { logger: silentLogger, matcher: kind },
    );
    for (const [headers, id, step] of [
      [{ "x-wap-profile": "http://example.com/gone.xml" }, "61", 3],
      [{ "x-operamini-phone": "Nokia # N95" }, "62", 1],
    ] as const) {
      const reply = gone.detect(headers);
      expect(reply.status).toBe(255);
      expect(reply.message).toContain(id);
      expect(gone.explain(headers)).toMatchObject({ deviceId: id, status: 255, deviceStep: step });
    }
  });

  it("matches extras over all headers as they arrived, whichever header gave the device", () => {
    const headers = {
      "x-wap-profile": "http://example.com/a.xml",
      "user-agent": "Mozilla/5.0 (Linux; Android 2.3) Mobile Safari",
    };
    expect(ids(headers)).toEqual({ deviceId: "30", platformId: "501", browserId: "601" });
  });

  it("normalises values for extra trees: trimmed, spaces deleted, ASCII lower case", () => {
    expect(ids({ "user-agent": "\t Nokia6620 Android 2.3 \t" })).toMatchObject({ platformId: "501" });
    expect(ids({ "user-agent": "Nokia6620 ANDROID" })).toMatchObject({ platformId: "502" });
  });

  it("tries x-operamini-phone-ua first for the platform", () => {
    const headers = { "user-agent": "Nokia6620 Android", "x-operamini-phone-ua": "Opera-UA" };
    expect(ids(headers)).toMatchObject({ deviceId: "10", platformId: "503" });
    expect(engine.explain(headers).platform).toMatchObject({ header: "x-operamini-phone-ua" });
  });

  it("lets x-forwarded-for take part in the extras", () => {
    expect(ids({ "user-agent": "Nokia6620", "x-forwarded-for": "10.0.0.1" })).toMatchObject({
      deviceId: "10",
      browserId: "603",
    });
  });

  it("merges a platform extra only when its platform is non-empty", () => {
    const withPlatform = engine.detect({ "user-agent": "Nokia6620 Android 2.3" });
    expect(withPlatform.hd_specs).toMatchObject({
      general_platform: "Android",
      general_platform_version: "2.3",
    });
    const emptyPlatform = engine.detect({ "user-agent": "Nokia6620 EmptyPlat" });
    expect(emptyPlatform.hd_specs).toMatchObject({
      general_platform: "DevicePlatform",
      general_platform_version: "1.0",
    });
  });

  it("merges the browser extra, else the platform extra's browser", () => {
    const browser = engine.detect({ "user-agent": "Nokia6620 Plat+Browser Safari" });
    expect(browser.hd_specs).toMatchObject({
      general_platform: "PlatOS",
      general_browser: "Safari",
      general_browser_version: "5.0",
    });
    const fromPlatform = engine.detect({ "user-agent": "Nokia6620 Plat+Browser EmptyBrowser" });
    expect(fromPlatform.hd_specs).toMatchObject({
      general_browser: "PlatBrowser",
      general_browser_version: "7",
    });
    const neither = engine.detect({ "user-agent": "Nokia6620 EmptyBrowser" });
    expect(neither.hd_specs).toMatchObject({ general_browser: "", general_browser_version: "" });
  });

  it("answers status 0 with the record, class general_type or Unknown", () => {
    const reply = engine.detect({ "user-agent": "Nokia6620" });
    expect(reply).toMatchObject({ status: 0, message: "OK", class: "Mobile" });
    expect(reply.hd_specs?.general_model).toBe("Model 10");
    expect(engine.detect({ "user-agent": "Nokia 3310" })).toMatchObject({ status: 0, class: "Unknown" });
  });

  it("accepts any-case header names and joins repeated values with a comma and a space", () => {
    expect(device({ "User-Agent": "Nokia6620" })).toBe("10");
    expect(ids({ "USER-AGENT": ["Nokia6620", "foo", "bar"] })).toMatchObject({
      deviceId: "10",
      browserId: "605",
    });
    expect(ids({ "User-Agent": "Nokia6620 foo", "user-agent": "bar" })).toMatchObject({ browserId: "605" });
    expect(device({ "user-agent": undefined, "x-aaa": "HeaderOrder xaaamatch" })).toBe("23");
  });

  it("treats keys named like prototype members as ordinary keys", () => {
    expect(device({ "x-wap-profile": "constructor" })).toBe("32");
    expect(device({ "x-wap-profile": "toString" })).toBeNull();
    expect(device({ "x-wap-profile": "hasOwnProperty" })).toBeNull();
    expect(device({ "user-agent": "constructor" })).toBe("70");
    expect(device({ "user-agent": "toString" })).toBe("71");
    expect(ids({ "user-agent": "Nokia6620 __proto__" })).toMatchObject({ platformId: "506" });
    expect(({} as Record<string, unknown>).general_platform).toBeUndefined();
  });

  it("says which tree, header and rule decided", () => {
    const why = engine.explain({ "user-agent": "Nokia6620 Android 2.3 MobileSafari" });
    expect(why.device).toEqual({
      tree: "user-agent0",
      header: "user-agent",
      method: "sieve",
      normalisedValue: "nokia6620android23mobilesafari",
      order: "100",
      filter: "nokia",
      match: "nokia6620",
      id: "10",
    });
    expect(why.platform).toMatchObject({
      tree: "user-agentplatform",
      filter: "android",
      match: "android2.3",
    });
    expect(why.browser).toMatchObject({ tree: "user-agentbrowser", filter: "safari", match: "mobilesafari" });
  });

  it("never lets callers change shared records", () => {
    const reply = engine.detect({ "user-agent": "Nokia6620" });
    expect(Object.isFrozen(reply.hd_specs)).toBe(true);
    expect(Object.isFrozen(reply.hd_specs?.network)).toBe(true);
  });
});

describe("trees given as an already-parsed object", () => {
  it("keeps JavaScript's order, which differs on integer-like keys, and warns once", () => {
    const logger: Logger = { warn: vi.fn() };
    const parsed = JSON.parse(RULE_TREES) as TreesDownload;
    const engine = LocalEngine.fromData(ruleSpecs(), parsed, { logger });
    expect(engine.explain({ "user-agent": "Nokia6620" }).deviceId).toBe("11");
    expect(engine.explain({ "user-agent": "abcd12345" }).deviceId).toBe("15");
    const codes = vi.mocked(logger.warn).mock.calls.map(([, details]) => details?.code);
    expect(codes.filter((code) => code === "HD_ENGINE_REORDERED_KEYS")).toHaveLength(1);
    expect(engine.dataInfo.reorderedKeys).toBeGreaterThan(0);
  });

  it("does not warn about order when the trees came as text", () => {
    const logger: Logger = { warn: vi.fn() };
    LocalEngine.fromData(ruleSpecs(), RULE_TREES, { logger });
    const codes = vi.mocked(logger.warn).mock.calls.map(([, details]) => details?.code);
    expect(codes).not.toContain("HD_ENGINE_REORDERED_KEYS");
    expect(codes.filter((code) => code === "HD_ENGINE_MISSING_DEVICES")).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { MemoryStore } from "../src/cache/memory-store.js";
import { createRedisStore } from "../src/cache/redis-store.js";
import { createTieredStore } from "../src/cache/tiered-store.js";
import { HdClient } from "../src/client/index.js";
import { LocalEngine } from "../src/engine/local-engine.js";
import { sampleDataFiles } from "../src/engine/sample-engine.js";
import { HdOptionError } from "../src/errors.js";
import { mobileRedirect } from "../src/middleware/adaptive.js";
import { handsetDetection } from "../src/middleware/handset-detection.js";
import {
  booleanOption,
  choiceOption,
  MAX_TIMER_MS,
  millisecondsOption,
  numberOption,
  optionsObject,
  stringOption,
  urlOption,
} from "../src/options.js";
import { createApiServer } from "../src/server/index.js";
import { resolveUsers } from "../src/server/users.js";
import { ArchiveDataSource } from "../src/store/archive-source.js";
import { DataStore } from "../src/store/data-store.js";
import { DataRefresher } from "../src/store/refresher.js";
import { optionError } from "./support/option-error.js";

const { specsPath, treesPath } = sampleDataFiles();
const engine = await LocalEngine.fromFiles(specsPath, treesPath);
const store = new MemoryStore();
const users = [{ username: "u", secret: "s" }];
const redisClient = { get: async () => null, set: async () => "OK", del: async () => 1 };
const dataStore = new DataStore({ dir: "/tmp/unused-hd-dir" });

/** Every factory, called with valid options plus `extra`. */
const factories: Record<string, (extra: Record<string, unknown>) => unknown> = {
  handsetDetection: (extra) => handsetDetection({ engine, ...extra }),
  HdClient: (extra) => new HdClient({ username: "u", secret: "s", siteId: 1, ...extra }),
  "LocalEngine.fromData": (extra) => LocalEngine.fromFiles(specsPath, treesPath, extra),
  createApiServer: (extra) => createApiServer({ engine, users, ...extra }),
  createRedisStore: (extra) => createRedisStore({ client: redisClient, ...extra }),
  createTieredStore: (extra) => createTieredStore({ level1: store, level2: store, ...extra }),
  MemoryStore: (extra) => new MemoryStore(extra),
  DataStore: (extra) => new DataStore({ dir: "/tmp/unused-hd-dir", ...extra }),
  DataRefresher: (extra) => new DataRefresher({ store: dataStore, ...extra }),
  mobileRedirect: (extra) => mobileRedirect({ to: "https://m.example.com", ...extra }),
  ArchiveDataSource: (extra) =>
    new ArchiveDataSource({ client: { fetchArchive: async () => ({ file: "", bytes: 0 }) }, ...extra }),
  resolveUsers: (extra) => resolveUsers([{ username: "u", secret: "s", ...extra }]),
};

/** The option an error names for `key`: the key itself, or its path inside a list. */
const optionPath = (factory: string, key: string): string =>
  factory === "resolveUsers" ? `users[0].${key}` : key;

/** The error a factory throws (sync or async), or undefined. */
async function thrownBy(make: () => unknown): Promise<unknown> {
  try {
    await make();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Names inherited from Object.prototype, which no options table has. */
const INHERITED_NAMES = ["hasOwnProperty", "toString", "constructor", "__proto__"];

describe("every factory validates its options the same way", () => {
  for (const [name, create] of Object.entries(factories)) {
    it(`${name} rejects names inherited from Object.prototype as unknown options`, async () => {
      for (const key of INHERITED_NAMES) {
        const caught = await thrownBy(() => create({ [key]: 5 }));
        expect(caught).toBeInstanceOf(HdOptionError);
        expect((caught as HdOptionError).option).toBe(optionPath(name, key));
        expect((caught as HdOptionError).message).toMatch(/has no such option/);
      }
    });

    it(`${name} suggests a real option, never an inherited value, for an inherited name`, async () => {
      for (const key of INHERITED_NAMES) {
        const { message } = (await thrownBy(() => create({ [key]: 5 }))) as HdOptionError;
        expect(message).toMatch(
          / has no such option\. (Did you mean `[A-Za-z][\w.]*`\?|Valid options: [\w, ]+\.)$/,
        );
        expect(message).not.toMatch(/native code|\[object /);
      }
    });

    it(`${name} suggests the closest name for a misspelt option`, async () => {
      const caught = await thrownBy(() => create({ logerr: console }));
      expect(caught).toBeInstanceOf(HdOptionError);
      expect((caught as HdOptionError).code).toBe("ERR_HD_INVALID_OPTION");
      expect((caught as HdOptionError).message).toMatch(/Did you mean `logger`\?|Valid options: /);
    });
  }

  it("rejects createApiServer({ ..., hasOwnProperty: 1 }) and createRedisStore({ client, toString: 5 })", () => {
    expect(optionError(() => createApiServer({ engine, users, hasOwnProperty: 1 } as never)).option).toBe(
      "hasOwnProperty",
    );
    expect(optionError(() => createRedisStore({ client: redisClient, toString: 5 } as never)).option).toBe(
      "toString",
    );
  });
});

describe("option checks", () => {
  it("reads an options object and refuses what is not one", () => {
    const spec = { factory: "make()", known: { a: true }, usage: "{ a: 1 }" } as const;
    expect(optionsObject<{ a?: number }>({ a: 1 }, spec)).toEqual({ a: 1 });
    for (const bad of [null, 5, "x", [1]]) {
      const error = optionError(() => optionsObject(bad, spec));
      expect(error.option).toBe("options");
      expect(error.message).toContain("make() expects an options object, such as { a: 1 }.");
    }
  });

  it("applies the fallback for undefined and shows a bad value in one message style", () => {
    expect(booleanOption("flag", undefined, true)).toBe(true);
    expect(optionError(() => booleanOption("flag", "yes")).message).toBe(
      'Invalid option `flag`: expected true or false. Got "yes".',
    );
    expect(numberOption("n", undefined, { min: 0 }, 7)).toBe(7);
    expect(optionError(() => numberOption("n", 1.5, { min: 1, integer: true })).message).toBe(
      "Invalid option `n`: expected a whole number of at least 1. Got 1.5.",
    );
    expect(choiceOption("mode", undefined, ["a", "b"], "a")).toBe("a");
    expect(optionError(() => choiceOption("mode", "c", ["a", "b"], "a")).message).toBe(
      'Invalid option `mode`: expected "a", "b". Got "c".',
    );
  });

  it("bounds milliseconds by what Node's timers accept", () => {
    expect(millisecondsOption("waitMs", MAX_TIMER_MS, 1)).toBe(MAX_TIMER_MS);
    expect(optionError(() => millisecondsOption("waitMs", MAX_TIMER_MS + 1, 1)).option).toBe("waitMs");
    expect(optionError(() => millisecondsOption("waitMs", 0, 1)).option).toBe("waitMs");
    expect(millisecondsOption("waitMs", 0, 1, { min: 0 })).toBe(0);
  });

  it("takes whole milliseconds only when asked", () => {
    expect(millisecondsOption("waitMs", 2.5, 1)).toBe(2.5);
    expect(millisecondsOption("waitMs", 3, 1, { integer: true })).toBe(3);
    expect(optionError(() => millisecondsOption("waitMs", 2.5, 1, { integer: true })).message).toBe(
      `Invalid option \`waitMs\`: expected a whole number of milliseconds from 1 to ${MAX_TIMER_MS}. Got 2.5.`,
    );
    expect(optionError(() => millisecondsOption("waitMs", 5, 1, { min: 10, integer: true })).option).toBe(
      "waitMs",
    );
  });

  it("names an item of a list option, and its keys, by their path", () => {
    const spec = { factory: "an account", known: { a: true }, usage: "{ a }", at: "users[2]" } as const;
    const unknown = optionError(() => optionsObject({ b: 1 }, spec));
    expect(unknown.option).toBe("users[2].b");
    // An item that is not an object may be a secret: only its kind is shown.
    const notObject = optionError(() => optionsObject("alice:hunter2", spec));
    expect(notObject.option).toBe("users[2]");
    expect(notObject.message).toBe(
      "Invalid option `users[2]`: an account expects an options object, such as { a }. Got a string.",
    );
  });

  it("never shows a secret or a URL's password", () => {
    const secret = optionError(() => stringOption("secret", "", undefined, true));
    expect(secret.message).toContain("[redacted]");
    const url = optionError(() =>
      urlOption("proxy", "ftp://user:hunter2@proxy.example", ["http:", "https:"]),
    );
    expect(url.message).not.toContain("hunter2");
    expect(url.message).toContain("ftp://[redacted]@proxy.example");
    // A password holding a "/" (not a valid URL) is hidden too.
    for (const bad of ["socks5://u:pa/hunter2@proxy.example", "http://u:pa/hunter2@"]) {
      const message = optionError(() => urlOption("proxy", bad, ["http:", "https:"])).message;
      expect(message).not.toContain("hunter2");
    }
  });
});

describe("one message style for every factory", () => {
  const client = (extra: Record<string, unknown>) => () =>
    new HdClient({ username: "u", secret: "s", siteId: 1, ...extra } as never);
  const archive = (options: unknown) => () => new ArchiveDataSource(options as never);
  const account = { username: "a", secret: "b" };

  it.each([
    [client({ username: "" }), 'Invalid option `username`: expected a non-empty string. Got "".'],
    [
      client({ username: 'a"b' }),
      'Invalid option `username`: expected a name without quotes, backslashes or control characters. Got "a\\"b".',
    ],
    [
      client({ siteId: 0 }),
      "Invalid option `siteId`: expected a positive whole number or a non-empty string without surrounding spaces. Got 0.",
    ],
    [
      client({ baseUrl: "api.example.com" }),
      'Invalid option `baseUrl`: expected an absolute http or https URL. Got "api.example.com".',
    ],
    [
      client({ baseUrl: "https://example.com/?x=1" }),
      'Invalid option `baseUrl`: expected a URL without a query or fragment. Got "https://example.com/?x=1".',
    ],
    [client({ failoverUrls: 5 }), "Invalid option `failoverUrls`: expected an array of http(s) URLs. Got 5."],
    [client({ proxy: 8080 }), "Invalid option `proxy`: expected an absolute http or https URL. Got 8080."],
    [
      () => resolveUsers([]),
      "Invalid option `users`: expected a non-empty array of { username, secret, downloads? }. Got [].",
    ],
    [
      () => resolveUsers([{ ...account, downloads: "yes" }]),
      'Invalid option `users[0].downloads`: expected true or false. Got "yes".',
    ],
    [
      () => resolveUsers([account, account]),
      'Invalid option `users[1].username`: expected each username once. Got "a".',
    ],
    [
      () => resolveUsers([{ ...account, password: "p" }]),
      "Invalid option `users[0].password`: an account has no such option. Did you mean `secret`?",
    ],
    [
      archive(null),
      "Invalid option `options`: new ArchiveDataSource() expects an options object, such as { client }. Got null.",
    ],
    [archive({}), "Invalid option `client`: is required: expected an archive client such as an HdClient."],
    [
      archive({ client: {} }),
      "Invalid option `client`: expected an archive client such as an HdClient (an object with fetchArchive method). Got {}.",
    ],
    [
      archive({ client: { fetchArchive() {} }, clients: 1 }),
      "Invalid option `clients`: new ArchiveDataSource() has no such option. Did you mean `client`?",
    ],
  ])("gives the shared form: case %#", (make, message) => {
    expect(optionError(make).message).toBe(message);
  });
});

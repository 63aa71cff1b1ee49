// createRedisStore where ioredis is not installed: `node:module`'s resolver is made to miss it.

import { describe, expect, it, vi } from "vitest";
import { createRedisStore } from "../../src/cache/redis-store.js";
import { HdOptionError } from "../../src/errors.js";

vi.mock("node:module", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:module")>();
  const createRequire = (from: string | URL) => {
    const require = actual.createRequire(from);
    const resolve = (name: string) => {
      if (name === "ioredis") {
        throw Object.assign(new Error(`Cannot find module '${name}'`), { code: "MODULE_NOT_FOUND" });
      }
      return require.resolve(name);
    };
    return Object.assign((id: string) => require(id), require, { resolve });
  };
  return { ...actual, createRequire, default: { ...actual, createRequire } };
});

describe("createRedisStore without ioredis installed", () => {
  it("throws HdOptionError naming `url` at construction, saying to install ioredis", () => {
    const create = () => createRedisStore({ url: "redis://127.0.0.1:6379" });
    expect(create).toThrow(HdOptionError);
    expect(create).toThrow(expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "url" }));
    expect(create).toThrow(/npm install ioredis/);
  });

  it("still accepts a client the caller built, which needs no ioredis of its own", async () => {
    const store = createRedisStore({
      client: { get: async () => null, set: async () => "OK", del: async () => 0 },
      logger: { warn() {} },
    });
    expect(await store.get("k")).toBeUndefined();
    await store.close();
  });
});

// Type tests: what each entry point exports, typed (the root ".", "/server", "/redis", "/data", "/report").

import type { RequestHandler } from "express";
import { describe, expectTypeOf, it } from "vitest";
import type * as redis from "../../src/cache/index.js";
import type * as root from "../../src/index.js";
import type * as prometheus from "../../src/prometheus/index.js";
import type * as report from "../../src/report/index.js";
import type * as server from "../../src/server/index.js";
import type * as data from "../../src/store/index.js";
import type * as testing from "../../src/testing/index.js";

describe("entry points", () => {
  it("the root holds what an Express app needs and none of the server, Redis or data-store factories", () => {
    expectTypeOf<typeof root>().toHaveProperty("handsetDetection");
    expectTypeOf<typeof root>().toHaveProperty("HdClient");
    expectTypeOf<typeof root>().toHaveProperty("LocalEngine");
    expectTypeOf<typeof root>().toHaveProperty("MemoryStore");
    expectTypeOf<typeof root>().not.toHaveProperty("createApiServer");
    expectTypeOf<typeof root>().not.toHaveProperty("createRedisStore");
    expectTypeOf<typeof root>().not.toHaveProperty("createTieredStore");
    expectTypeOf<typeof root>().not.toHaveProperty("DataStore");
    expectTypeOf<typeof root>().not.toHaveProperty("DataRefresher");
  });

  it("/server makes an Express handler from its options", () => {
    expectTypeOf<typeof server.createApiServer>().parameter(0).toEqualTypeOf<server.ApiServerOptions>();
    expectTypeOf<typeof server.createApiServer>().returns.toEqualTypeOf<server.ApiServer>();
    expectTypeOf<typeof server.loadUsersFile>().returns.resolves.toEqualTypeOf<server.UserTable>();
  });

  it("/redis makes CacheStores the middleware takes", () => {
    expectTypeOf<ReturnType<typeof redis.createRedisStore<string>>>().toExtend<redis.CacheStore<string>>();
    expectTypeOf<ReturnType<typeof redis.createTieredStore<string>>>().toExtend<redis.CacheStore<string>>();
    expectTypeOf<redis.CacheStore<string>>().toEqualTypeOf<root.CacheStore<string>>();
  });

  it("/data keeps a LocalEngine the root's middleware takes", () => {
    expectTypeOf<InstanceType<typeof data.DataStore>["engine"]>().toEqualTypeOf<
      root.LocalEngine | undefined
    >();
    expectTypeOf<InstanceType<typeof data.DataRefresher>>().toHaveProperty("start");
  });

  it("/testing makes a complete Device the root's req.device has, and a middleware that sets it", () => {
    expectTypeOf<typeof testing.fakeDevice>().returns.toEqualTypeOf<root.Device>();
    expectTypeOf<typeof testing.fakeDevice>()
      .parameter(0)
      .toEqualTypeOf<testing.FakeDeviceInput | undefined>();
    expectTypeOf<typeof testing.fakeDetection>().returns.toEqualTypeOf<RequestHandler>();
    expectTypeOf<typeof testing.fakeDetection>()
      .parameter(0)
      .toEqualTypeOf<testing.FakeDetectionInput | undefined>();
  });

  it("/prometheus collects from the middleware, or anything with the same metrics()", () => {
    expectTypeOf<root.HandsetDetectionMiddleware>().toExtend<prometheus.DeviceMetricsSource>();
    expectTypeOf<
      ReturnType<prometheus.DeviceMetricsSource["metrics"]>
    >().toEqualTypeOf<root.HandsetDetectionMetrics>();
  });

  it("/report makes a report from lines and renders it", () => {
    expectTypeOf<typeof report.createReport>().parameter(0).toEqualTypeOf<report.ReportOptions | undefined>();
    expectTypeOf<
      ReturnType<typeof report.createReport>["result"]
    >().returns.toEqualTypeOf<report.ReportResult>();
    expectTypeOf<typeof report.renderReportHtml>().parameter(0).toEqualTypeOf<report.ReportResult>();
    expectTypeOf<typeof root>().not.toHaveProperty("createReport");
  });
});

import { describe, expectTypeOf, it } from "vitest";
import type { HdClient } from "../../src/client/index.js";
import type { DataSource } from "../../src/store/data-source.js";

describe("DataSource", () => {
  it("is satisfied by the cloud client", () => {
    expectTypeOf<HdClient>().toExtend<DataSource>();
  });
});

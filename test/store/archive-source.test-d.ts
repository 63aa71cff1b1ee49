// Type tests: the cloud client fits ArchiveDataSource, which fits DataStore's source.

import { describe, expectTypeOf, it } from "vitest";
import type { HdClient } from "../../src/client/index.js";
import type { ArchiveClient, ArchiveDataSource } from "../../src/store/archive-source.js";
import type { DataSource } from "../../src/store/data-source.js";

describe("ArchiveDataSource", () => {
  it("takes the cloud client as its client and is a DataSource", () => {
    expectTypeOf<HdClient>().toExtend<ArchiveClient>();
    expectTypeOf<ArchiveDataSource>().toExtend<DataSource>();
  });
});

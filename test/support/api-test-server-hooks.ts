// One loopback API test server for a test file: started before its tests, reset after each, closed after all.

import { afterAll, afterEach, beforeAll } from "vitest";
import { ApiTestServer, type ApiTestServerOptions } from "./api-test-server.js";

/**
 * Registers the file's hooks for one {@link ApiTestServer} and answers a function that gives it
 * (call it inside tests: the server starts in `beforeAll`).
 */
export function apiTestServerForFile(options: ApiTestServerOptions = {}): () => ApiTestServer {
  let server: ApiTestServer | undefined;
  beforeAll(async () => {
    server = await ApiTestServer.start(options);
  });
  afterEach(() => {
    server?.reset();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (server === undefined)
      throw new Error("the API test server starts in beforeAll: use it inside a test");
    return server;
  };
}

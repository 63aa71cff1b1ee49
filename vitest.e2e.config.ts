// `npm run test:e2e`: the tests against real components, named `*.e2e.test.ts`. Each one skips with a
// message when its tool (chromium, redis-server, curl, php with zip, the vendor's kit) is absent.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.e2e.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/support/load-client-http.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

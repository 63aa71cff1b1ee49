// `npm test`: unit and loopback-integration tests. The slow ones, against real components (a browser,
// the hd3 binary, the packed tarball, redis-server, curl, the vendor's PHP kit), are named
// `*.e2e.test.ts` and run with `npm run test:e2e` (vitest.e2e.config.ts).
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.e2e.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});

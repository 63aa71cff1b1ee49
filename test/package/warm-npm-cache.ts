// Fills a private npm cache with everything test/package/install-as-user.e2e.test.ts installs, so that
// the test can run a real `npm install --offline` and never call the registry itself. .ci/run runs it
// online, after `npm ci` has built dist/: `npx tsx test/package/warm-npm-cache.ts <cache-dir>`.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProject, NPM_SETUPS, npmInstall, packTarball } from "./user-project.js";

const cache = process.argv[2];
if (cache === undefined || cache === "") {
  console.error("usage: tsx test/package/warm-npm-cache.ts <cache-dir>");
  process.exit(2);
}
const scratch = await mkdtemp(join(tmpdir(), "hd-warm-npm-cache-"));
try {
  const tarball = await packTarball(scratch);
  for (const setup of NPM_SETUPS) {
    const project = join(scratch, setup.name);
    await createProject(project);
    await npmInstall(project, tarball, setup, cache, { offline: false });
  }
  console.log(`npm cache at ${cache} holds what the install-as-user test installs`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}

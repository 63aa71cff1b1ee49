// @ts-check
// Starts the example app: `npm start` (PORT, default 3000; HOST, default every interface) and says which detection source it uses.

import { createApp } from "./app.js";
import { chooseSource } from "./source.js";

/**
 * The port to listen on: `PORT` (0 picks a free one), default 3000.
 * @param {string | undefined} text
 * @returns {number}
 */
function portFrom(text) {
  if (text === undefined || text === "") return 3000;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(text)}.`);
  }
  return port;
}

try {
  const port = portFrom(process.env.PORT);
  const host = process.env.HOST || undefined;
  const source = await chooseSource(process.env);
  const app = await createApp({ source });
  const server = host === undefined ? app.listen(port) : app.listen(port, host);
  server.on("listening", () => {
    const address = server.address();
    const actual = typeof address === "object" && address !== null ? address.port : port;
    const shownHost = host === undefined ? "localhost" : host.includes(":") ? `[${host}]` : host;
    console.log(`Example app: http://${shownHost}:${actual}`);
    console.log(`Detection source: ${source.kind}: ${source.description}`);
    if (source.kind === "sample") {
      console.log(
        "This is sample data. For real detection: `npx express-handset-detection sync` (a licence with downloads), or set HD_USERNAME, HD_SECRET and HD_SITE_ID for the cloud.",
      );
    }
  });
  server.on("error", (error) => {
    console.error(`Cannot listen on port ${port}: ${error.message}`);
    process.exitCode = 1;
  });
  const stop = () => server.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(`The example app cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

// The self-hosted API on Node's own HTTP server, letting through the raw spaces the vendor's PHP kit sends: node examples/raw-spaces.js
import express from "express";
import { sampleEngine } from "express-handset-detection";
import { createApiServer } from "express-handset-detection/server";

const app = express();
app.use(createApiServer({ engine: sampleEngine(), users: [{ username: "alice", secret: process.env.HD_SECRET ?? "change-me" }] }));

// #region raw-spaces
import http from "node:http";
import { acceptRawSpaces } from "express-handset-detection/server";

// The vendor's PHP kit puts raw spaces in request lines (`/view/Google/Pixel 8.json`): let them through.
const server = acceptRawSpaces(http.createServer(app)); // https.createServer works too
const port = Number(process.env.PORT ?? 8080);
server.listen(port, () => console.log(`http://localhost:${port}`));
// #endregion raw-spaces

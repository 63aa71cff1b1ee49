// Types `req.device` (and `res.locals.device`) on Express's Request and Response, v4 and v5 alike.

import type { Device } from "../core/device.js";

declare module "express-serve-static-core" {
  interface Request {
    /** The device of this request, set by `handsetDetection()`. */
    device: Device;
  }
  interface Locals {
    /** The device of this request, for templates; set by `handsetDetection()`. */
    device: Device;
    /**
     * The page script's `<script src>` tag, for templates (`pageScript` on, the default), under
     * the middleware's mount path; set by `handsetDetection()`. `""` with `pageScript: { path:
     * false }` (use `deviceScriptTag({ path })` where you serve it). For a strict CSP use
     * `deviceScriptTag({ inline: true, nonce })`.
     */
    deviceScriptTag: string;
  }
}

// Turns normalised replies back into the exact API v3 wire shapes a self-hosted server sends.

import type {
  DetectReply,
  ModelsReply,
  ReplyStatus,
  VendorsReply,
  ViewReply,
  WhatHasReply,
} from "../types.js";

/** A JSON body ready to send. */
export type WireBody = Record<string, unknown>;

/**
 * A detect reply on the wire: `status` is an integer; a 301 ("Nothing Found") carries
 * `class: "Unknown"`.
 */
export function detectWire(reply: DetectReply | (ReplyStatus & Record<string, unknown>)): WireBody {
  const status = Number(reply.status);
  const body: WireBody = { ...reply, message: String(reply.message), status };
  if (status === 301 && typeof body.class !== "string") body.class = "Unknown";
  return body;
}

/** The reply of a site call that failed with an API status (229, 255, ...): integer status. */
export function siteStatusWire(status: number, message: string): WireBody {
  return { message, status };
}

/** Status of a device call on the wire: a string. Anything not OK carries only message and status. */
function deviceStatusWire(reply: ReplyStatus): WireBody {
  return { message: String(reply.message), status: String(reply.status) };
}

/** A vendors reply on the wire: `{ message, status: "0", vendor }`. */
export function vendorsWire(reply: VendorsReply | ReplyStatus): WireBody {
  if (Number(reply.status) !== 0 || !("vendor" in reply)) return deviceStatusWire(reply);
  return { ...deviceStatusWire(reply), vendor: reply.vendor };
}

/** A models reply on the wire: `{ message, status: "0", model }`. */
export function modelsWire(reply: ModelsReply | ReplyStatus): WireBody {
  if (Number(reply.status) !== 0 || !("model" in reply)) return deviceStatusWire(reply);
  return { ...deviceStatusWire(reply), model: reply.model };
}

/** A view reply on the wire: `{ message, status: "0", device }`, or `{ message, status: "301" }`. */
export function viewWire(reply: ViewReply | (ReplyStatus & { device?: unknown })): WireBody {
  if (Number(reply.status) !== 0 || reply.device === undefined) return deviceStatusWire(reply);
  return { ...deviceStatusWire(reply), device: reply.device };
}

/**
 * A whathas reply on the wire: `{ devices, message, status: "0" }`. The contract's example shows
 * `devices` alone, but the vendor's kits reject any reply without `status`.
 */
export function whatHasWire(reply: WhatHasReply | ReplyStatus): WireBody {
  if (Number(reply.status) !== 0 || !("devices" in reply)) return deviceStatusWire(reply);
  return { devices: reply.devices, ...deviceStatusWire(reply) };
}

/** Status as a device call sends it (a string), for server-made replies such as 400 or 500. */
export function deviceErrorWire(status: number, message: string): WireBody {
  return { message, status: String(status) };
}

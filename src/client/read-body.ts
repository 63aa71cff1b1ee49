// Reading reply bodies: streamed UTF-8 decoding, expected length, discarding unread bodies.

import type { Response } from "undici";
import { JsonShapeGuard, type JsonShapeLimits } from "./json-shape.js";
import { protocolError, type ReplyContext, replyTooLargeError } from "./normalise.js";

/**
 * The body size the reply announces, or undefined when it is unknown: no `content-length`, or
 * a `content-encoding` (then the length counts compressed bytes, not the bytes received).
 */
export function announcedLength(response: Response): number | undefined {
  if (response.headers.has("content-encoding")) return undefined;
  const header = response.headers.get("content-length");
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header);
}

/**
 * Reads the whole body as UTF-8 text, decoding chunk by chunk so that the received bytes are
 * released as they arrive (no byte buffer and string copy of the body side by side).
 */
export async function readText(response: Response, onChunk?: (chunk: Uint8Array) => void): Promise<string> {
  if (response.body === null) return "";
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for await (const chunk of response.body) {
    onChunk?.(chunk);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Reads a reply that is kept in memory as text, up to `maxBytes`: a larger announced length is
 * refused before reading, and a body that grows past the limit is cut off there (the stream is
 * cancelled, which closes the connection). Throws `HdReplyTooLargeError` either way. With
 * `shape`, a body nested deeper or holding more values (as JSON) is cut off the same way, before
 * anything parses it, with an `HdProtocolError`.
 */
export async function readLimitedText(
  response: Response,
  context: ReplyContext,
  maxBytes: number,
  shape?: JsonShapeLimits,
): Promise<string> {
  const announced = announcedLength(response);
  if (announced !== undefined && announced > maxBytes) {
    await discardBody(response);
    throw replyTooLargeError(
      context,
      `the reply announces ${announced} bytes, more than maxReplyBytes (${maxBytes})`,
      maxBytes,
    );
  }
  let receivedBytes = 0;
  const guard = shape === undefined ? undefined : new JsonShapeGuard(shape);
  return readText(response, (chunk) => {
    receivedBytes += chunk.byteLength;
    if (receivedBytes > maxBytes) {
      throw replyTooLargeError(
        context,
        `the reply exceeds maxReplyBytes (${maxBytes} bytes); reading stopped there`,
        maxBytes,
      );
    }
    const passed = guard?.push(chunk);
    if (passed !== undefined) {
      const limit =
        passed === "depth"
          ? `nests deeper than ${shape?.maxDepth} levels`
          : `holds more than ${shape?.maxValues} values`;
      throw protocolError(context, `the reply ${limit}; reading stopped there, nothing was parsed`);
    }
  });
}

/** Drops a body that will not be read, so the connection can be reused or closed. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to do: the body is unusable either way.
  }
}

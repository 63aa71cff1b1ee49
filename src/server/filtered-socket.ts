// A Duplex in front of a TCP (or TLS) socket that hands the HTTP parser its bytes through a RequestLineFilter.

import type { AddressInfo, Socket } from "node:net";
import { Duplex } from "node:stream";
import type { RequestLineFilter } from "./request-line-filter.js";

/**
 * Wraps an accepted socket for Node's HTTP server (which accepts any Duplex as a connection):
 * received bytes go through the filter, written bytes go to the socket as they are. The socket
 * calls and properties the HTTP server and Express use (`setTimeout` and its `timeout` event,
 * `destroySoon`, addresses, byte counts, `encrypted`) are forwarded to the real socket.
 */
export class FilteredSocket extends Duplex {
  readonly #socket: Socket;

  constructor(socket: Socket, filter: RequestLineFilter) {
    super({ allowHalfOpen: true });
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      let more = true;
      for (const part of filter.push(chunk)) more = this.push(part);
      if (!more) socket.pause();
    });
    socket.on("end", () => this.push(null));
    socket.on("timeout", () => this.emit("timeout"));
    socket.on("error", (error) => this.destroy(error));
    socket.on("close", () => this.destroy());
  }

  override _read(): void {
    this.#socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#socket.write(chunk, encoding, callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    const socket = this.#socket;
    socket.cork();
    chunks.forEach(({ chunk, encoding }, index) => {
      socket.write(chunk, encoding, index === chunks.length - 1 ? callback : undefined);
    });
    socket.uncork();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#socket.destroy();
    callback(error);
  }

  /** Ends the connection once everything written is flushed (Node's HTTP server calls it after a last reply). */
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once("finish", () => this.destroy());
  }

  setTimeout(timeoutMs: number, callback?: () => void): this {
    this.#socket.setTimeout(timeoutMs);
    if (callback !== undefined) {
      if (timeoutMs === 0) this.off("timeout", callback);
      else this.once("timeout", callback);
    }
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.#socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, initialDelayMs?: number): this {
    this.#socket.setKeepAlive(enable, initialDelayMs);
    return this;
  }

  ref(): this {
    this.#socket.ref();
    return this;
  }

  unref(): this {
    this.#socket.unref();
    return this;
  }

  address(): AddressInfo | Record<string, never> {
    return this.#socket.address();
  }

  get remoteAddress(): string | undefined {
    return this.#socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.#socket.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.#socket.remoteFamily;
  }

  get localAddress(): string | undefined {
    return this.#socket.localAddress;
  }

  get localPort(): number | undefined {
    return this.#socket.localPort;
  }

  get bytesRead(): number {
    return this.#socket.bytesRead;
  }

  get bytesWritten(): number {
    return this.#socket.bytesWritten;
  }

  /** True on a TLS connection (Express reads it for `req.protocol` and `req.secure`). */
  get encrypted(): boolean | undefined {
    return (this.#socket as Socket & { encrypted?: boolean }).encrypted;
  }
}

// Sends one API v3 call: digest auth, per-attempt timeout, retries with backoff, failover, error mapping.

import { fetch, ProxyAgent, type Response } from "undici";
import {
  HdAuthError,
  type HdError,
  HdNetworkError,
  HdProtocolError,
  HdReplyTooLargeError,
  HdTimeoutError,
  isHdError,
} from "../errors.js";
import { retryDelay, sleep } from "./backoff.js";
import { API_V3_CHALLENGE, digestAuthorization, isDigestChallenge } from "./digest.js";
import { MAX_DETECT_REPLY_VALUES, MAX_REPLY_DEPTH } from "./json-shape.js";
import { apiErrorFromBody, protocolError, type ReplyContext } from "./normalise.js";
import type { ResolvedClientOptions } from "./options.js";
import { discardBody, readLimitedText } from "./read-body.js";

/** Every call is sent with this method. */
const METHOD = "POST";

/** Wraps an error thrown by the caller's own code (a progress callback): it is rethrown as is. */
export class CallerError {
  constructor(readonly error: unknown) {}
}

/** What the reply reader of one attempt may do with the attempt's timer. */
export interface AttemptControl {
  /** Re-arms the attempt's timer: downloads call it for every chunk (an idle limit). */
  touch(): void;
}

/** One call: where it goes, what it sends, and how a successful HTTP reply is read. */
export interface CallSpec<T> {
  /** The client call, for messages and logs (`vendors`, `fetchSpecs`, ...). */
  readonly call: string;
  /** Path after the base URL, already percent-encoded: `/apiv3/device/vendors.json`. */
  readonly path: string;
  /** JSON request body. */
  readonly body: string;
  /** The caller's signal: aborting it stops the call and rejects with its reason. */
  readonly signal?: AbortSignal | undefined;
  /** Reads and checks a reply with an HTTP 2xx status. Runs inside the attempt's time limit. */
  consume(response: Response, context: ReplyContext, control: AttemptControl): Promise<T>;
}

/** Errors worth another attempt: network failures, timeouts and HTTP 5xx replies. */
const retryable = new WeakSet<HdError>();

function markRetryable<E extends HdError>(error: E): E {
  retryable.add(error);
  return error;
}

/** A short description of a transport failure: the codes and messages of its cause chain. */
function describeFailure(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${current.message} (${code})` : current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.length === 0 ? String(error) : parts.join(": ");
}

/**
 * The HTTP side of the client. Holds the proxy agent (if any); `close()` releases it. The
 * credentials live in a private field and never leave this module except inside the
 * `Authorization` header.
 */
export class Transport {
  readonly #config: ResolvedClientOptions;
  readonly #dispatcher: ProxyAgent | undefined;

  constructor(config: ResolvedClientOptions) {
    this.#config = config;
    this.#dispatcher = config.proxy === undefined ? undefined : new ProxyAgent(config.proxy);
  }

  /**
   * Runs a call: each round tries every base URL in order; a retryable failure moves on to the
   * next URL, and after a whole round fails the next round starts after a backoff delay.
   */
  async request<T>(spec: CallSpec<T>): Promise<T> {
    const { baseUrls, retries, retryDelayMs, logger } = this.#config;
    let lastError: unknown;
    for (let round = 0; round <= retries; round++) {
      if (round > 0) {
        const delayMs = retryDelay(retryDelayMs, round - 1);
        logger.debug?.(`${spec.call}: retrying in ${delayMs} ms`, { call: spec.call, round, delayMs });
        await sleep(delayMs, spec.signal);
      }
      for (const [index, base] of baseUrls.entries()) {
        try {
          return await this.#attempt(base, spec);
        } catch (error) {
          if (!(isHdError(error) && retryable.has(error))) throw error;
          lastError = error;
          logger.debug?.(`${spec.call}: attempt failed (${error.code})`, {
            call: spec.call,
            url: error.url,
            code: error.code,
            httpStatus: error.httpStatus,
            round,
            failover: index + 1 < baseUrls.length,
          });
        }
      }
    }
    throw lastError;
  }

  /** One attempt against one base URL (two HTTP requests only when the server answers a 401 challenge). */
  async #attempt<T>(base: string, spec: CallSpec<T>): Promise<T> {
    const url = new URL(base + spec.path).href;
    const context = { call: spec.call, method: METHOD, url };
    const controller = new AbortController();
    const { timeoutMs } = this.#config;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`No reply within ${timeoutMs} ms`, "TimeoutError"));
      }, timeoutMs);
      timer.unref();
    };
    const callerSignal = spec.signal;
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) throw callerSignal.reason;
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    arm();
    try {
      let response = await this.#send(url, spec.body, controller.signal, API_V3_CHALLENGE);
      if (response.status === 401) {
        const challenge = response.headers.get("www-authenticate");
        await discardBody(response);
        if (!isDigestChallenge(challenge)) {
          throw new HdAuthError(
            `${spec.call}: the server rejected the credentials (HTTP 401, no Digest challenge)`,
            {
              ...context,
              httpStatus: 401,
            },
          );
        }
        response = await this.#send(url, spec.body, controller.signal, challenge);
        if (response.status === 401) {
          await discardBody(response);
          throw new HdAuthError(
            `${spec.call}: the server rejected the credentials twice (HTTP 401); check username and secret`,
            { ...context, httpStatus: 401 },
          );
        }
      }
      const replyContext: ReplyContext = { ...context, httpStatus: response.status };
      if (response.status >= 200 && response.status < 300) {
        return await spec.consume(response, replyContext, { touch: arm });
      }
      throw await this.#httpError(response, replyContext);
    } catch (error) {
      throw this.#classify(error, context, timedOut, callerSignal);
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    }
  }

  #send(url: string, body: string, signal: AbortSignal, challenge: string): Promise<Response> {
    const authorization = digestAuthorization(url, METHOD, this.#config, challenge);
    return fetch(url, {
      method: METHOD,
      headers: { "content-type": "application/json", accept: "application/json", authorization },
      body,
      signal,
      redirect: "manual",
      ...(this.#dispatcher === undefined ? {} : { dispatcher: this.#dispatcher }),
    });
  }

  /** The error for a reply that is not HTTP 2xx (401 is handled before). */
  async #httpError(response: Response, context: ReplyContext): Promise<HdError> {
    if (response.status >= 500) {
      await discardBody(response);
      return markRetryable(protocolError(context, `the server failed with HTTP ${response.status}`));
    }
    if (response.status >= 300 && response.status < 400) {
      await discardBody(response);
      return protocolError(context, `unexpected redirect (HTTP ${response.status})`);
    }
    // An error page too large to keep is still a refusal: only its status is reported then.
    // An error page too deep or too large to parse (an API error is a few values) is a refusal all the same.
    const text = await readLimitedText(response, context, this.#config.maxReplyBytes, {
      maxDepth: MAX_REPLY_DEPTH,
      maxValues: MAX_DETECT_REPLY_VALUES,
    }).catch((error: unknown) => {
      if (error instanceof HdReplyTooLargeError || error instanceof HdProtocolError) return "";
      throw error;
    });
    return (
      apiErrorFromBody(text, context) ??
      protocolError(context, `the server refused the call with HTTP ${response.status}`)
    );
  }

  /** Maps whatever an attempt threw to the error the caller sees. */
  #classify(
    error: unknown,
    context: { call: string; method: string; url: string },
    timedOut: boolean,
    callerSignal: AbortSignal | undefined,
  ): unknown {
    if (error instanceof CallerError) return error.error;
    if (isHdError(error)) return error;
    if (callerSignal?.aborted) return callerSignal.reason;
    const { call, ...where } = context;
    if (timedOut) {
      return markRetryable(
        new HdTimeoutError(
          `${call}: no complete reply within ${this.#config.timeoutMs} ms (${where.method} ${where.url})`,
          where,
        ),
      );
    }
    return markRetryable(
      new HdNetworkError(
        `${call}: network failure (${where.method} ${where.url}): ${describeFailure(error)}`,
        {
          ...where,
          cause: error,
        },
      ),
    );
  }

  /** Releases the proxy agent's connections. The client must not be used afterwards. */
  async close(): Promise<void> {
    await this.#dispatcher?.close();
  }
}

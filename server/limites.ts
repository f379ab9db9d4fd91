import type { NextFunction, Request, Response } from "express";
import {
  bodyPolicyFor,
  inspectBody,
  MAX_BODY_BYTES,
  MAX_FIELDS,
  REFUSALS,
  type BodyPolicy,
  type Refusal,
} from "./edge";

const DEFAULT_POLICY: BodyPolicy = { maxBytes: MAX_BODY_BYTES, maxFields: MAX_FIELDS };

/**
 * A form's body read, measured and checked before any route sees it (edge.ts:
 * inspectBody), then handed back to the request as it was (Readable#unshift), so Remix's
 * adapter reads the same bytes. A route with a streaming policy (the receipts upload) reads a
 * multipart body larger than the ordinary limit itself, as it arrives: only its declared length
 * is checked here. A refusal goes in `res.locals.refusal` (the app's own page, server/remix.ts).
 */
export async function checkBody(req: Request, res: Response, next: NextFunction) {
  if (req.method === "GET" || req.method === "HEAD" || res.locals.refusal) return next();
  const refuse = (refusal: Refusal) => {
    console.warn(`Petición ${req.method} ${req.path} rechazada (${refusal.status}): ${refusal.message}`);
    res.locals.refusal = refusal;
    next();
  };
  const policy = bodyPolicyFor(req.path);
  const declared = req.get("Content-Length");
  if (
    policy.stream &&
    /^multipart\/form-data/i.test(req.get("Content-Type") ?? "") &&
    (declared === undefined || Number(declared) > MAX_BODY_BYTES)
  ) {
    if (declared === undefined) return refuse(REFUSALS.lengthRequired);
    if (Number(declared) > policy.maxBytes) return refuse(REFUSALS.tooLarge);
    return next();
  }
  const ordinary = policy.stream ? DEFAULT_POLICY : policy;
  const read = await readBody(req, ordinary);
  if ("refusal" in read) return refuse(read.refusal);
  const inspected = await inspectBody(req.get("Content-Type"), read.body, ordinary);
  if (!inspected.ok) return refuse(inspected.refusal);
  req.headers["content-type"] = inspected.contentType;
  next();
}

/**
 * Reads the whole body (forms only: at most `maxBytes`), refusing before reading when the
 * declared length is too large or missing. Node's parser delivers exactly Content-Length bytes;
 * once they are all here the request is paused and they are given back to it, unread.
 */
function readBody(req: Request, { maxBytes }: BodyPolicy): Promise<{ body: Buffer } | { refusal: Refusal }> {
  const length = req.get("Content-Length");
  if (length === undefined && req.get("Transfer-Encoding"))
    return Promise.resolve({ refusal: REFUSALS.lengthRequired });
  const expected = Number(length ?? 0);
  if (expected > maxBytes) return Promise.resolve({ refusal: REFUSALS.tooLarge });
  if (!expected) return Promise.resolve({ body: Buffer.alloc(0) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: { body: Buffer } | { refusal: Refusal }) => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("aborted", onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < expected) return;
      req.pause();
      const body = Buffer.concat(chunks, size);
      done({ body });
      // The bytes back to the request, before its end: what Remix's adapter will read.
      req.unshift(body);
    };
    const onEnd = () => done({ refusal: REFUSALS.malformed });
    const onError = () => done({ refusal: REFUSALS.malformed });
    req.on("data", onData).on("end", onEnd).on("error", onError).on("aborted", onError);
  });
}

/** How long a connection that answered before its body arrived keeps reading it (lingerIfRefusedEarly). */
const LINGER_MS = 2_000;

/**
 * An answer sent before the body has all arrived (a refusal: too large, no length, cross-origin)
 * makes Node close the connection («Connection: close») as soon as the answer is written. Closing
 * a socket with unread data sends a reset, and a reset that reaches the client before it has read
 * the answer discards it: the client saw EPIPE or ECONNRESET and no 411 or 413 (about 1 request in
 * 200 in a minimal program, 1 run in 6 of the reliability suite). So close the way web servers'
 * «lingering close» does: the answer, then FIN, then keep reading and dropping what still comes
 * until the client stops sending or LINGER_MS pass.
 */
export function lingerIfRefusedEarly(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "GET" && req.method !== "HEAD")
    res.once("finish", () => {
      const socket = req.socket;
      // Runs after Node's own «finish» handler: only where it has begun closing (socket.destroySoon).
      if (req.complete || !socket.writableEnded || socket.destroyed) return;
      socket.removeListener("finish", socket.destroy);
      const timer = setTimeout(() => socket.destroy(), LINGER_MS);
      socket.once("end", () => socket.destroy());
      socket.once("close", () => clearTimeout(timer));
    });
  next();
}

/**
 * Answers sent before the request's body was read: 413 as soon as the Content-Length (or the
 * bytes read so far) pass the route's limit, 401 from the credential check before any parsing.
 * The client may still be sending. Closing the connection then makes the kernel reset it, and a
 * client that writes its whole body before reading (Node's fetch, `http.request`) loses the answer
 * to EPIPE. So, like nginx's lingering close, the rest of the body is read and discarded (the
 * connection stays usable afterwards), bounded in bytes and in time; past either bound, or when the
 * declared length is already past it, the connection is closed. A client that trickles its body
 * (slow loris) holds the connection at most `DRAIN_MAX_MS`.
 */
import type { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** How much of an unread body is read and discarded after the answer, beyond what was read before it. */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
/** How long a connection may keep sending an unread body after the answer. */
export const DRAIN_MAX_MS = 5_000;

/** The limit the body parser applied to this request (the route's, else the server's). */
export const bodyLimitOf = (request: FastifyRequest): number => request.routeOptions.bodyLimit;

/**
 * Called while answering 413. Fastify marks that answer `Connection: close`, which makes Node
 * close the socket as soon as the answer is written; the header is dropped when the rest of the
 * body can be drained within the bound (unknown for a chunked body: drained up to the bound).
 */
export function keepConnectionToDrain(request: FastifyRequest, reply: FastifyReply) {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > bodyLimitOf(request) + DRAIN_MAX_BYTES) return;
  reply.removeHeader("connection");
}

/** Reads and discards what is left of the request's body, closing the connection past either bound. */
function drainUnreadBody(message: IncomingMessage) {
  const socket = message.socket;
  // Only a real connection has a body left to read: an injected request (app.inject) has none.
  if (message.complete || !(socket instanceof Socket) || socket.destroyed) return;
  let drained = 0;
  const closeConnection = () => socket.destroy();
  // A drain never keeps a stopping process alive.
  const timer = setTimeout(closeConnection, DRAIN_MAX_MS).unref();
  const countChunk = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) closeConnection();
  };
  const stop = () => {
    clearTimeout(timer);
    message.off("data", countChunk);
  };
  message.on("data", countChunk);
  message.once("end", stop);
  message.once("close", stop);
  message.resume();
}

export function registerBodyDrain(app: FastifyInstance) {
  app.addHook("onResponse", (request, _reply, done) => {
    drainUnreadBody(request.raw);
    done();
  });
}

import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';

/**
 * A connection that was idle when the server stopped accepting is kept this long, so a request
 * its client sent at that moment is answered (with `Connection: close`) rather than reset.
 */
const IDLE_GRACE_MS = 1000;
const SWEEP_MS = 50;
/**
 * The listener closes once no connection and no request has arrived for this long: a load
 * balancer that has not yet seen readiness fail is still sending, and what it sends is answered.
 */
const QUIET_MS = 250;

/**
 * Graceful HTTP shutdown for rolling updates. Node's `server.close()` destroys idle keep-alive
 * connections at once, and a request a client sends on one of them at that moment gets a TCP
 * reset and no answer (the client cannot know whether a PUT was applied). Instead:
 * `startDraining` makes every answer carry `Connection: close` (clients open their next connection
 * elsewhere while the load balancer still routes here), and `close` stops accepting, keeps
 * answering what arrives on open connections, and closes a connection only when it has no
 * request in flight and has been idle past a short grace.
 *
 * `close` stops accepting only once traffic has been quiet for a moment (at most half its grace):
 * closing a listening socket resets the connections the kernel has completed but the process has
 * not yet accepted — on a busy event loop, every connection of the last few hundred milliseconds —
 * so a balancer slow to see readiness fail got resets, where it now gets answers.
 */
export interface HttpDrain {
  /** The server's request listener, wrapped to count requests per connection. */
  wrap(listener: RequestListener): RequestListener;
  /** From now on every answer closes its connection (`Connection: close`). */
  startDraining(): void;
  readonly draining: boolean;
  /**
   * Stops accepting once no connection or request has arrived for a moment (at most `graceMs / 2`
   * after the call); resolves when every connection has closed (forced after `graceMs`).
   */
  close(graceMs: number): Promise<void>;
}

interface ConnectionState {
  inFlight: number;
  idleSince: number;
}

export function httpDrain(server: Server): HttpDrain {
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;
  let lastArrival = 0;
  server.on('connection', (socket: Socket) => {
    lastArrival = Date.now();
    connections.set(socket, { inFlight: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  return {
    wrap: (listener) => (req: IncomingMessage, res: ServerResponse) => {
      lastArrival = Date.now();
      const state = connections.get(req.socket);
      if (state) {
        state.inFlight++;
        res.once('close', () => {
          state.inFlight--;
          state.idleSince = Date.now();
        });
      }
      if (draining) res.setHeader('Connection', 'close');
      listener(req, res);
    },
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async close(graceMs) {
      draining = true;
      const calledAt = Date.now();
      await untilQuiet(() => lastArrival, calledAt + graceMs / 2);
      const stoppedAt = Date.now();
      return new Promise<void>((resolve) => {
        const closeIdle = () => {
          const now = Date.now();
          for (const [socket, state] of connections) {
            if (state.inFlight === 0 && now - Math.max(state.idleSince, stoppedAt) >= IDLE_GRACE_MS) socket.destroy();
          }
        };
        const sweep = setInterval(closeIdle, SWEEP_MS);
        const force = setTimeout(() => {
          for (const socket of connections.keys()) socket.destroy();
        }, Math.max(0, calledAt + graceMs - stoppedAt));
        // net's close, not http's: http's would destroy the idle keep-alive connections at once.
        net.Server.prototype.close.call(server, () => {
          clearInterval(sweep);
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

/**
 * Resolves once `lastArrival()` is QUIET_MS in the past, or at `deadline`. Each check waits for
 * a timer and then for the check phase (setImmediate) of that loop turn: the poll phase between
 * them has accepted what the kernel queued, so a connection waiting behind a busy event loop
 * counts as an arrival before the listener closes.
 */
function untilQuiet(lastArrival: () => number, deadline: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (delayMs: number) =>
      setTimeout(() =>
        setImmediate(() => {
          const now = Date.now();
          if (now >= deadline || now - lastArrival() >= QUIET_MS) resolve();
          else check(Math.min(QUIET_MS - (now - lastArrival()), deadline - now));
        }),
      delayMs);
    check(0);
  });
}

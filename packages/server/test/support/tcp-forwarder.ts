/**
 * A loopback TCP forwarder to put in front of a database, so a test can cut every connection
 * (`cut`, as a network blip or a restarted server would), refuse new ones (`stop`, an outage) and
 * accept them again on the same port (`restore`).
 */
import { createServer, connect, type Server, type Socket } from "node:net";

export type TcpForwarder = {
  port: number;
  /** Connections accepted since the start. */
  readonly accepted: number;
  /** Resets every forwarded connection (both sides); new connections are still accepted. */
  cut(): number;
  /** Refuses new connections and resets the open ones: the database is unreachable. */
  stop(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpForwarder(target: { host: string; port: number }): Promise<TcpForwarder> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  let server: Server;
  let port = 0;

  function forward(client: Socket) {
    accepted += 1;
    const upstream = connect({ host: target.host, port: target.port });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async function listen() {
    server = createServer(forward);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        const address = server.address();
        port = typeof address === "object" && address ? address.port : 0;
        resolve();
      });
    });
  }

  function cut(): number {
    const count = pairs.size;
    for (const pair of [...pairs]) {
      pairs.delete(pair);
      // A TCP RST, as a dying server or middlebox sends: the broker reads ECONNRESET.
      for (const socket of pair) socket.resetAndDestroy();
    }
    return count;
  }

  async function stopListening() {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    cut();
    await closed;
  }

  await listen();
  return {
    get port() {
      return port;
    },
    get accepted() {
      return accepted;
    },
    cut,
    stop: stopListening,
    restore: listen,
    close: async () => {
      if (server.listening) await stopListening();
    },
  };
}

/** The same database URL, reached through the forwarder. */
export function throughForwarder(databaseUrl: string, forwarder: TcpForwarder): string {
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(forwarder.port);
  return url.toString();
}

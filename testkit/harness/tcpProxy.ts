import net from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: give this to the client instead of the real server's address. */
  url: string;
  /** Refuses new connections and drops open ones: to its clients, the server is down. */
  cut(): Promise<void>;
  /** Listens on the same port again and forwards as before. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP forwarder in front of a shared server (the stack's OpenSearch) that a test can cut: an
 * outage for the clients behind it (connection refused) without stopping the server that other
 * suites use.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, cut: stop, restore: () => listen(port), close: stop };
}

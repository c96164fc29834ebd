import net from 'node:net';
import tls from 'node:tls';

export interface TlsProxy {
  /** `https://127.0.0.1:<port>`: an address the test CA's server certificate names. */
  url: string;
  close(): Promise<void>;
}

/**
 * A TLS-terminating forwarder in front of a plain-text server (the stack's OpenSearch): clients
 * see a server whose certificate a private CA signed, as with a managed or self-hosted cluster
 * behind TLS, while the shared server itself is left as it is.
 */
export async function startTlsProxy(
  target: { host: string; port: number },
  cert: string,
  key: string,
): Promise<TlsProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = tls.createServer({ cert, key }, (client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  // A refused handshake (the client distrusts the certificate) is what some tests expect.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

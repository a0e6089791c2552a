// A receiver that takes each connection, tells the test, and drops it after `holdMs`: to the webhook
// worker, a failed attempt that lasts as long as the test needs (the worker's unit tests).
import net from "node:net";

export async function dropper(holdMs: number) {
  const state = { connections: 0, onConnect: () => {} };
  const server = net.createServer((socket) => {
    state.connections++;
    state.onConnect();
    setTimeout(() => socket.destroy(), holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`;
  return Object.assign(state, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

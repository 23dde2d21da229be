// Deliveries keep their connection to a receiver open between requests (src/modules/webhooks/send.ts),
// and a kept connection the receiver dropped just as it was reused is retried once on a new one.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { test } from "node:test";
import { send } from "../../src/modules/webhooks/send.ts";

const target = (port: number) => ({
  url: new URL(`http://127.0.0.1:${port}/hooks`),
  address: "127.0.0.1",
  family: 4 as const,
});

async function listening(server: ReturnType<typeof createServer> | ReturnType<typeof createTcpServer>) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

test("deliveries to one receiver, one after another, share one connection", async () => {
  let connections = 0;
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      bodies.push(body);
      response.writeHead(204).end();
    });
  });
  server.on("connection", () => connections++);
  const port = await listening(server);
  try {
    for (const n of [1, 2, 3]) {
      const result = await send(target(port), {}, JSON.stringify({ n }));
      assert.equal(result.statusCode, 204);
    }
    assert.deepEqual(bodies, ['{"n":1}', '{"n":2}', '{"n":3}']);
    assert.equal(connections, 1, "one connection for three deliveries");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a kept connection the receiver resets as it is reused: sent again on a new one, once", async () => {
  // A receiver that answers a connection's first request and resets it on the next, before
  // reading it: what a receiver that closed an idle connection does to a request already on its way.
  const requests: number[] = [];
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    let served = 0;
    let buffered = "";
    socket.on("data", (chunk) => {
      if (served > 0) {
        socket.resetAndDestroy();
        return;
      }
      buffered += chunk;
      const head = buffered.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(buffered)?.[1] ?? 0);
      if (head < 0 || buffered.length < head + 4 + length) return;
      served++;
      requests.push(sockets.size);
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
    });
    socket.on("error", () => {});
  });
  const port = await listening(server);
  try {
    assert.equal((await send(target(port), {}, "{}")).statusCode, 200);
    const again = await send(target(port), {}, "{}");
    assert.equal(again.statusCode, 200, again.error ?? "");
    assert.equal(sockets.size, 2, "the reset connection, then a new one");
    assert.deepEqual(requests, [1, 2], "each connection served one request");
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

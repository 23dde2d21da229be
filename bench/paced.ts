// An open-loop load at a constant rate, for "p99 at N% of peak load". autocannon's `overallRate`
// is not that: each connection resets a per-second budget on a one-second timer and spends it at
// once (node_modules/autocannon/lib/httpClient.js, `reqsMadeThisSecond`), so a run at 70% of peak
// is a full-speed burst for most of every second and then silence, and its p99 is the p99 under
// full load. Here request i is due at start + i / rate; it goes out on the first free connection,
// and its latency is counted from when it was due, not from when it went out, so a server that
// falls behind pays for the queue it causes (no coordinated omission).
import net from "node:net";
import { performance } from "node:perf_hooks";

export interface PacedLoad {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** Requests per second, spread evenly. */
  rate: number;
  seconds: number;
  /** Keep-alive connections: requests due while all are busy wait for one (and that wait counts). */
  connections: number;
}

export interface PacedResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function requestBytes(load: PacedLoad, target: URL): Buffer {
  const body = load.body ?? "";
  const lines = [`${load.method} ${target.pathname}${target.search} HTTP/1.1`, `host: ${target.host}`];
  for (const [name, value] of Object.entries(load.headers)) lines.push(`${name}: ${value}`);
  if (load.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

/** One keep-alive connection with at most one request in flight; calls back with the status. */
function connection(target: URL, onResponse: (status: number) => void) {
  const socket = net.connect(Number(target.port), target.hostname);
  socket.setNoDelay(true);
  let buffered: Buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    const headEnd = buffered.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = buffered.subarray(0, headEnd).toString("latin1");
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) throw new Error(`paced load: a response without content-length:\n${head}`);
    const end = headEnd + 4 + Number(length[1]);
    if (buffered.length < end) return;
    if (buffered.length > end) throw new Error("paced load: more bytes than one response");
    buffered = Buffer.alloc(0);
    onResponse(Number(head.slice(9, 12)));
  });
  return socket;
}

export async function pacedLoad(load: PacedLoad): Promise<PacedResult> {
  const target = new URL(load.url);
  const request = requestBytes(load, target);
  const total = Math.round(load.rate * load.seconds);
  const interval = 1000 / load.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let next = 0;
  let start = 0;
  const idle: net.Socket[] = [];
  const sentAt = new Map<net.Socket, number>();

  const { promise: done, resolve, reject } = Promise.withResolvers<void>();
  const dispatch = () => {
    const now = performance.now();
    while (next < total && start + next * interval <= now && idle.length > 0) {
      const socket = idle.pop()!;
      sentAt.set(socket, start + next * interval);
      next += 1;
      socket.write(request);
    }
  };
  const sockets = Array.from({ length: load.connections }, () => {
    const socket = connection(target, (status) => {
      latencies.push(performance.now() - sentAt.get(socket)!);
      if (status < 200 || status > 299) non2xx += 1;
      idle.push(socket);
      if (latencies.length === total) resolve();
      else dispatch();
    });
    socket.on("error", reject);
    return socket;
  });
  await Promise.all(sockets.map((socket) => new Promise((ok) => socket.once("connect", ok))));
  idle.push(...sockets);
  start = performance.now();
  const timer = setInterval(dispatch, 1);
  try {
    await done;
  } finally {
    clearInterval(timer);
    for (const socket of sockets) socket.destroy();
  }
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { rps: Math.round(total / elapsed), p50: at(0.5), p99: at(0.99), non2xx };
}

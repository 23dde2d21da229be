// A webhook receiver for the benchmarks (`BENCH_AB_ENDPOINT`): answers every delivery with 204, as
// an app's endpoint would, so each succeeds at its first attempt. Over TLS (`https`), with a
// certificate made for the run for 127.0.0.1 (openssl) that the services started with `env` trust
// (NODE_EXTRA_CA_CERTS), as a receiver on the internet would be reached.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import os from "node:os";
import path from "node:path";

export async function startReceiver(https: boolean): Promise<{ url: string; env: Record<string, string> }> {
  const tls = https ? selfSignedCertificate() : undefined;
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  };
  const server: Server = tls ? createHttpsServer(tls, answer) : createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Never what keeps the benchmark's process alive.
  server.unref();
  const { port } = server.address() as { port: number };
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}/hooks`,
    env: tls ? { NODE_EXTRA_CA_CERTS: tls.certPath } : {},
  };
}

function selfSignedCertificate() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-tls-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  const subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"];
  const curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"];
  execFileSync(
    "openssl",
    ["req", "-x509", ...curve, "-nodes", "-keyout", key, "-out", cert, "-days", "1", ...subject],
    { stdio: "ignore" },
  );
  return { key: readFileSync(key), cert: readFileSync(cert), certPath: cert };
}

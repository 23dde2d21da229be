// `npm run bench:sealing`: the CPU a payment create's sealing and ids cost, each way (docs/benchmarks.md,
// "Sealing, ids and hooks"): AES-256-GCM with the key given as a Buffer or as a KeyObject, and
// small random draws from `randomBytes` or from the service's pool (src/platform/crypto/random.ts).
// CPU time per call (process.cpuUsage), so other work on the machine moves it little.
import { createCipheriv, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import { secureRandomBytes } from "../src/platform/crypto/random.ts";

const key = randomBytes(32);
const keyObject = createSecretKey(key);
const token = Buffer.from(`pt_${randomBytes(32).toString("base64url")}`);
const aad = Buffer.from("secret|payment-token:pay_01m8dc7xgf6q8jk1espjx5pdyb");

function encrypt(with_: Buffer | KeyObject) {
  const cipher = createCipheriv("aes-256-gcm", with_, secureRandomBytes(12), { authTagLength: 16 });
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(token), cipher.final(), cipher.getAuthTag()]);
}

function cpuMicros(label: string, run: () => unknown, times = 50_000) {
  for (let i = 0; i < 2000; i++) run();
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) run();
  const used = process.cpuUsage(start);
  console.log(`${label.padEnd(44)} ${((used.user + used.system) / times).toFixed(2)} µs CPU a call`);
}

for (let round = 1; round <= 2; round++) {
  console.log(`round ${round}`);
  cpuMicros("encrypt, key as a Buffer", () => encrypt(key));
  cpuMicros("encrypt, key as a KeyObject", () => encrypt(keyObject));
  cpuMicros("encrypt, KeyObject made from the bytes", () => encrypt(createSecretKey(key)));
  cpuMicros("randomBytes(10)", () => randomBytes(10));
  cpuMicros("secureRandomBytes(10) (pooled)", () => secureRandomBytes(10));
}

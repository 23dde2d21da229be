import { buildTestApp } from "./helpers/app.ts";

const t = await buildTestApp();
await t.app.inject({ method: "GET", url: "/kyc/kyt_SECRETTOKEN123?x=1" });
await t.app.inject({ method: "TRACE", url: "/kyc/kyt_SECRETTOKEN123" });
console.log(t.logs.join(""));
console.log(
  t.routes
    .filter((r) => /\{|:/.test(r.url))
    .map((r) => r.method + " " + r.url)
    .join("\n"),
);
await t.close();

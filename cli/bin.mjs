#!/usr/bin/env node
// The `payments` command: plain JavaScript, so it runs as shipped on Node 18.3 and later.
import { main } from "./src/main.mjs";

process.exitCode = await main(process.argv.slice(2));

// Hands the memory glibc's allocator holds free back to the operating system, now and then.
//
// Start-up allocates and frees a lot: V8 compiles the embedded database's WebAssembly (one
// function alone takes 600 MB of compiler memory) and every route's serializers. glibc gives back
// only the free memory at the top of each heap; what is free between blocks still in use stays in
// the process, some 30 to 50 MB of it after start-up (docs/benchmarks.md, "Memory given back, 2026-11-25").
// `malloc_trim(0)` is glibc's own call for giving that back. Node has no binding for it, so it is
// called through koffi, a foreign-function library with prebuilt binaries for every platform.
// Elsewhere (macOS, Windows, musl's libc) there is nothing to call, and this does nothing.
import type { Logger } from "pino";

export interface MemoryTrim {
  stop(): void;
}

const NOTHING: MemoryTrim = { stop() {} };

/** Loads glibc's `malloc_trim`, or answers why it cannot. */
export async function loadMallocTrim(): Promise<((pad: number) => number) | string> {
  if (process.platform !== "linux") return `${process.platform} has no glibc`;
  try {
    // musl (Alpine) has no libc.so.6, and no malloc_trim: the load fails and nothing is trimmed.
    const { default: koffi } = await import("koffi");
    const libc = koffi.load("libc.so.6");
    return libc.func("int malloc_trim(size_t pad)") as (pad: number) => number;
  } catch (error) {
    return `koffi could not load malloc_trim: ${(error as Error).message}`;
  }
}

/**
 * Trims now, then every `intervalSeconds` (MEMORY_TRIM_SECONDS; 0 turns trimming off). The call
 * walks the allocator's free lists and returns whole free pages: 1 to 2 ms on an idle
 * process, and the timer never keeps the process alive.
 */
export async function startMemoryTrim(intervalSeconds: number, logger: Logger): Promise<MemoryTrim> {
  if (intervalSeconds === 0) return NOTHING;
  const trim = await loadMallocTrim();
  if (typeof trim === "string") {
    // Expected off Linux; on Linux it means the process keeps more memory than it needs.
    logger[process.platform === "linux" ? "info" : "debug"](
      { reason: trim },
      "memory trim unavailable; nothing to do",
    );
    return NOTHING;
  }
  trim(0);
  const timer = setInterval(() => trim(0), intervalSeconds * 1000);
  timer.unref();
  logger.debug({ interval_seconds: intervalSeconds }, "memory trim on");
  return { stop: () => clearInterval(timer) };
}

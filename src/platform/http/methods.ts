import type { RegisteredRoute } from "./server.ts";

/**
 * Which methods a path has routes for, for the 405 a request with another method gets (with an
 * `Allow` header) instead of a 404 that would say the resource does not exist. Built from the
 * registered routes once the server is ready; `:param` matches one segment, `*` the rest.
 */
export function allowedMethods(routes: RegisteredRoute[]): (path: string) => string[] {
  let patterns: { method: string; pattern: RegExp }[] | undefined;
  return (path) => {
    patterns ??= routes.map((route) => ({
      method: route.method,
      pattern: new RegExp(
        `^${route.url
          .replace(/\/$/, "")
          .split(/(:[A-Za-z0-9_]+|\*)/)
          .map((part) =>
            part === "*"
              ? ".*"
              : part.startsWith(":")
                ? "[^/]+"
                : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
          )
          .join("")}/?$`,
      ),
    }));
    const bare = path.split("?")[0];
    const methods = new Set(patterns.filter((p) => p.pattern.test(bare)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}

import type { IncomingMessage, ServerResponse } from "node:http";

export type JsonRpcHandlers = Record<string, (params: any) => unknown>;

/**
 * A JSON-RPC 2.0 request handler for loopback stand-ins: a handler's return value is the result,
 * and whatever it throws is sent as the `error` object (so stand-ins can answer node errors).
 */
export function serveJsonRpc(handlers: JsonRpcHandlers) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const { id, method, params } = JSON.parse(body);
      let answer: unknown;
      const handler = handlers[method];
      if (!handler) {
        answer = { jsonrpc: "2.0", id, error: { code: -32601, message: `stand-in has no ${method}` } };
      } else {
        try {
          answer = { jsonrpc: "2.0", id, result: handler(params ?? {}) };
        } catch (error) {
          // A bug in the stand-in itself surfaces as an internal error with its message.
          const body =
            error instanceof Error ? { code: -32603, message: "Internal error", data: error.stack } : error;
          answer = { jsonrpc: "2.0", id, error: body };
        }
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(answer));
    });
  };
}

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CARD_FRAME_HTML, STRIPE_JS, threeDSecurePage } from "./stripe-js-stand-in.ts";
import {
  authorise,
  type Intent,
  missing,
  type PaymentMethod,
  PaymentsApi,
} from "./stripe-stand-in-payments.ts";
import { type Transfer, TransfersApi } from "./stripe-stand-in-transfers.ts";

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/**
 * A loopback stand-in for api.stripe.com: it records what the SDK sends and answers the way
 * Stripe's API reference documents (objects, 402 card errors, 400 state errors, 5xx outages).
 * It also plays js.stripe.com (a stand-in Stripe.js at `/v3/`, whose card frame creates payment
 * methods here with the publishable key) and the issuer's 3-D Secure page (`/3ds/{intent}`).
 * This file keeps the server, the Idempotency-Key replay, the browser's pages and the routing; the
 * resources' handlers are in stripe-stand-in-payments.ts and stripe-stand-in-transfers.ts.
 */
export class StripeStandIn {
  readonly seen: SeenRequest[] = [];
  readonly intents = new Map<string, Intent>();
  /** Payment methods made with `POST /v1/payment_methods`, and the test card each was made from. */
  readonly paymentMethods = new Map<string, PaymentMethod & { number: string }>();
  /**
   * Connected accounts this Stripe knows, with their `transfers` capability: a test adds the
   * accounts its onboarding would have made. A transfer elsewhere is refused as Stripe refuses it.
   */
  readonly connectedAccounts = new Map<string, "active" | "inactive" | "pending">();
  readonly transfers = new Map<string, Transfer>();
  /** What was refunded of each intent's charge, as its charge's `amount_refunded` says. */
  readonly refunded = new Map<string, number>();
  /** `http://127.0.0.1:<port>` once started. */
  origin = "";
  /** First answers by Idempotency-Key: a repeated request gets the same object, as at Stripe. */
  private readonly idempotent = new Map<string, { request: string; status: number; text: string }>();
  /** While true every request answers 500, as Stripe does when it is down. */
  down = false;
  /**
   * While true a card declined by a create with `confirm: true` is answered without the intent the
   * create made (Stripe's card errors name it; the service must not depend on it).
   */
  declinesNameNoIntent = false;
  private server: Server | undefined;
  private counter = 0;
  /** The resources' handlers, reading and changing this stand-in's state. */
  private readonly paymentsApi = new PaymentsApi(this, (prefix) => this.id(prefix));
  private readonly transfersApi = new TransfersApi(this, (prefix) => this.id(prefix));

  async start(): Promise<number> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const form = new URLSearchParams(req.method === "GET" ? url.search : body);
        const page = this.browser(req.method ?? "", url.pathname, form);
        if (page) {
          res.writeHead(page.status, page.headers);
          res.end(page.body);
          return;
        }
        this.seen.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, form });
        const key = req.method === "POST" ? req.headers["idempotency-key"] : undefined;
        const replay = typeof key === "string" ? this.idempotent.get(key) : undefined;
        let status: number;
        let text: string;
        if (replay && replay.request !== `${url.pathname}?${body}`) {
          // Stripe refuses a key reused with other parameters rather than replaying.
          status = 400;
          text = JSON.stringify({
            error: {
              type: "idempotency_error",
              message:
                "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            },
          });
        } else if (replay) {
          [status, text] = [replay.status, replay.text];
        } else {
          const [code, answer] = this.route(
            req.method ?? "",
            url.pathname,
            form,
            String(req.headers.authorization ?? ""),
          );
          [status, text] = [code, JSON.stringify(answer)];
          // Stripe saves the first answer under the key (5xx excepted) and replays it byte for byte.
          if (typeof key === "string" && status < 500) {
            this.idempotent.set(key, { request: `${url.pathname}?${body}`, status, text });
          }
        }
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${++this.counter}` });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server!.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
    return port;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  last(): SeenRequest {
    return this.seen[this.seen.length - 1];
  }

  private id(prefix: string) {
    return `${prefix}_standin${++this.counter}`;
  }

  /** What a browser asks for: Stripe.js, the card frame, the 3-D Secure page and its answer. */
  private browser(
    method: string,
    path: string,
    form: URLSearchParams,
  ): { status: number; headers: Record<string, string>; body: string } | undefined {
    const html = (body: string) => ({
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body,
    });
    if (method === "GET" && (path === "/v3/" || path === "/v3")) {
      return { status: 200, headers: { "content-type": "text/javascript; charset=utf-8" }, body: STRIPE_JS };
    }
    if (method === "GET" && path === "/v3/elements/card.html") return html(CARD_FRAME_HTML);
    const challenge = /^\/3ds\/([^/]+)$/.exec(path);
    if (!challenge) return undefined;
    const intent = this.intents.get(decodeURIComponent(challenge[1]));
    if (intent?.status !== "requires_action") {
      return { status: 404, headers: { "content-type": "text/plain" }, body: "No authentication pending" };
    }
    if (method === "GET") return html(threeDSecurePage(intent.id));
    const passed = form.get("result") === "pass";
    const next = intent.next_action as { redirect_to_url: { return_url: string | null } };
    intent.next_action = null;
    if (passed) {
      authorise(intent);
      intent.latest_charge = this.id("ch");
    } else {
      intent.status = "requires_payment_method";
      intent.last_payment_error = {
        type: "card_error",
        code: "payment_intent_authentication_failure",
        message:
          "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
      };
    }
    const back = new URL(next.redirect_to_url.return_url ?? `${this.origin}/`);
    back.searchParams.set("payment_intent", intent.id);
    back.searchParams.set("payment_intent_client_secret", `${intent.id}_secret_standin`);
    back.searchParams.set("redirect_status", passed ? "succeeded" : "failed");
    return { status: 302, headers: { location: back.toString() }, body: "" };
  }

  private route(method: string, path: string, form: URLSearchParams, authorization = ""): [number, unknown] {
    if (this.down) return [500, { error: { type: "api_error", message: "An unknown error occurred" } }];
    const parts = path.split("/").filter(Boolean);
    if (method === "POST" && path === "/v1/payment_methods")
      return this.paymentsApi.createPaymentMethod(form, authorization);
    if (method === "POST" && path === "/v1/payment_intents") return this.paymentsApi.createIntent(form);
    if (method === "POST" && path === "/v1/refunds") return this.paymentsApi.refund(form);
    if (method === "GET" && path === "/v1/charges") return this.paymentsApi.charges(form);
    if (method === "POST" && path === "/v1/transfers") return this.transfersApi.create(form);
    if (parts[0] === "v1" && parts[1] === "transfers" && parts[2]) {
      const transfer = this.transfers.get(parts[2]);
      if (!transfer) return missing("id");
      if (method === "GET" && parts.length === 3) return [200, transfer];
      if (method === "POST" && parts[3] === "reversals" && parts.length === 4) {
        return this.transfersApi.reverse(transfer, form);
      }
    }
    if (method === "GET" && path === "/v1/payment_intents/search") return this.paymentsApi.search(form);
    if (parts[0] === "v1" && parts[1] === "payment_intents" && parts[2]) {
      const intent = this.intents.get(parts[2]);
      if (!intent) return missing("intent");
      if (method === "GET" && parts.length === 3) return [200, intent];
      return this.paymentsApi.act(intent, parts[3], form);
    }
    return [
      404,
      { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } },
    ];
  }
}

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

interface Intent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  status: string;
  capture_method: string;
  payment_method_types: string[];
  latest_charge: string | null;
  next_action: unknown;
  last_payment_error: unknown;
  metadata: Record<string, string>;
}

/**
 * A loopback stand-in for api.stripe.com: it records what the SDK sends and answers the way
 * Stripe's API reference documents (objects, 402 card errors, 400 state errors, 5xx outages).
 */
export class StripeStandIn {
  readonly seen: SeenRequest[] = [];
  readonly intents = new Map<string, Intent>();
  /** While true every request answers 500, as Stripe does when it is down. */
  down = false;
  private server: Server | undefined;
  private counter = 0;

  async start(): Promise<number> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const form = new URLSearchParams(req.method === "GET" ? url.search : body);
        this.seen.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, form });
        const [status, answer] = this.route(req.method ?? "", url.pathname, form);
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${++this.counter}` });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return (this.server!.address() as AddressInfo).port;
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

  private metadata(form: URLSearchParams) {
    const out: Record<string, string> = {};
    for (const [k, v] of form) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) out[m[1]] = v;
    }
    return out;
  }

  private route(method: string, path: string, form: URLSearchParams): [number, unknown] {
    if (this.down) return [500, { error: { type: "api_error", message: "An unknown error occurred" } }];
    const parts = path.split("/").filter(Boolean);
    if (method === "POST" && path === "/v1/payment_intents") {
      const types = [...form].filter(([k]) => k.startsWith("allowed_payment_method_types")).map(([, v]) => v);
      const intent: Intent = {
        id: this.id("pi"),
        object: "payment_intent",
        amount: Number(form.get("amount")),
        amount_capturable: 0,
        amount_received: 0,
        currency: form.get("currency") ?? "",
        status: "requires_payment_method",
        capture_method: form.get("capture_method") ?? "automatic_async",
        payment_method_types: types.length ? types : ["card"],
        latest_charge: null,
        next_action: null,
        last_payment_error: null,
        metadata: this.metadata(form),
      };
      this.intents.set(intent.id, intent);
      return [200, intent];
    }
    if (method === "POST" && path === "/v1/refunds") {
      const intent = this.intents.get(form.get("payment_intent") ?? "");
      if (!intent) return this.missing("payment_intent");
      const amount = Number(form.get("amount") ?? intent.amount_received);
      return [
        200,
        { id: this.id("re"), object: "refund", amount, status: "succeeded", payment_intent: intent.id },
      ];
    }
    if (method === "POST" && path === "/v1/transfers") {
      return [
        200,
        {
          id: this.id("tr"),
          object: "transfer",
          amount: Number(form.get("amount")),
          currency: form.get("currency"),
          destination: form.get("destination"),
          source_transaction: form.get("source_transaction"),
        },
      ];
    }
    if (parts[0] === "v1" && parts[1] === "payment_intents" && parts[2]) {
      const intent = this.intents.get(parts[2]);
      if (!intent) return this.missing("intent");
      if (method === "GET" && parts.length === 3) return [200, intent];
      return this.act(intent, parts[3], form);
    }
    return [
      404,
      { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } },
    ];
  }

  private act(intent: Intent, action: string, form: URLSearchParams): [number, unknown] {
    const unexpected = (): [number, unknown] => [
      400,
      {
        error: {
          type: "invalid_request_error",
          code: "payment_intent_unexpected_state",
          message: `This PaymentIntent's status is ${intent.status}.`,
          payment_intent: intent,
        },
      },
    ];
    if (action === "confirm") {
      if (intent.status !== "requires_payment_method") return unexpected();
      if (form.get("payment_method") === "pm_card_chargeDeclined") {
        intent.last_payment_error = {
          type: "card_error",
          code: "card_declined",
          decline_code: "generic_decline",
          message: "Your card was declined.",
        };
        return [
          402,
          {
            error: {
              type: "card_error",
              code: "card_declined",
              decline_code: "generic_decline",
              message: "Your card was declined.",
              payment_intent: intent,
            },
          },
        ];
      }
      if (form.get("payment_method_data[type]") === "us_bank_account") {
        intent.status = "processing";
      } else {
        intent.status = "requires_capture";
        intent.amount_capturable = intent.amount;
      }
      intent.latest_charge = this.id("ch");
      return [200, intent];
    }
    if (action === "capture") {
      if (intent.status !== "requires_capture") return unexpected();
      intent.status = "succeeded";
      intent.amount_received = Number(form.get("amount_to_capture") ?? intent.amount_capturable);
      intent.amount_capturable = 0;
      return [200, intent];
    }
    if (action === "cancel") {
      if (intent.status === "succeeded" || intent.status === "canceled") return unexpected();
      intent.status = "canceled";
      intent.amount_capturable = 0;
      return [200, intent];
    }
    return [404, { error: { type: "invalid_request_error", message: "Unrecognized request URL" } }];
  }

  private missing(param: string): [number, unknown] {
    return [
      404,
      {
        error: { type: "invalid_request_error", code: "resource_missing", param, message: "No such object" },
      },
    ];
  }
}

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CARD_FRAME_HTML, STRIPE_JS, threeDSecurePage } from "./stripe-js-stand-in.ts";

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

interface Transfer {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  source_transaction: string | null;
  transfer_group: string | null;
  metadata: Record<string, string>;
  reversed: boolean;
}

interface PaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  billing_details: { email: string | null };
}

/** What Stripe's test cards do at confirmation (docs.stripe.com/testing). */
const TEST_CARDS: Record<string, "decline" | "insufficient_funds" | "3ds"> = {
  "4000000000000002": "decline",
  "4000000000009995": "insufficient_funds",
  "4000002760003184": "3ds",
  "4000002500003155": "3ds",
};

/** Stripe's ready-made test payment methods, usable without creating one first. */
const TEST_PAYMENT_METHODS: Record<string, "ok" | "decline" | "3ds"> = {
  pm_card_visa: "ok",
  pm_card_chargeDeclined: "decline",
  pm_card_authenticationRequired: "3ds",
};

const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, d, i) => {
    const n = Number(d) * (i % 2 ? 2 : 1);
    return sum + (n > 9 ? n - 9 : n);
  }, 0) %
    10 ===
  0;

/**
 * A loopback stand-in for api.stripe.com: it records what the SDK sends and answers the way
 * Stripe's API reference documents (objects, 402 card errors, 400 state errors, 5xx outages).
 * It also plays js.stripe.com (a stand-in Stripe.js at `/v3/`, whose card frame creates payment
 * methods here with the publishable key) and the issuer's 3-D Secure page (`/3ds/{intent}`).
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

  private metadata(form: URLSearchParams) {
    const out: Record<string, string> = {};
    for (const [k, v] of form) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) out[m[1]] = v;
    }
    return out;
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
      this.authorise(intent);
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

  /** `POST /v1/payment_methods`, as Stripe.js calls it with the publishable key. */
  private createPaymentMethod(form: URLSearchParams, authorization: string): [number, unknown] {
    if (!/^Bearer (pk|sk)_test_/.test(authorization)) {
      return [401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } }];
    }
    const cardError = (code: string, param: string, message: string): [number, unknown] => [
      402,
      { error: { type: "card_error", code, param, message } },
    ];
    if (form.get("type") !== "card") {
      return [400, { error: { type: "invalid_request_error", param: "type", message: "Only card here" } }];
    }
    const number = form.get("card[number]") ?? "";
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
      return cardError("invalid_number", "number", "Your card number is invalid.");
    }
    const month = Number(form.get("card[exp_month]"));
    const rawYear = Number(form.get("card[exp_year]"));
    const year = rawYear < 100 ? 2000 + rawYear : rawYear;
    if (!(month >= 1 && month <= 12)) {
      return cardError("invalid_expiry_month", "exp_month", "Your card's expiration month is invalid.");
    }
    if (!(year >= new Date().getUTCFullYear())) {
      return cardError("invalid_expiry_year", "exp_year", "Your card's expiration year is invalid.");
    }
    if (!/^\d{3,4}$/.test(form.get("card[cvc]") ?? "")) {
      return cardError("invalid_cvc", "cvc", "Your card's security code is invalid.");
    }
    const method = {
      id: this.id("pm"),
      object: "payment_method" as const,
      type: "card" as const,
      card: {
        brand: number.startsWith("4") ? "visa" : "unknown",
        last4: number.slice(-4),
        exp_month: month,
        exp_year: year,
      },
      billing_details: { email: form.get("billing_details[email]") },
    };
    this.paymentMethods.set(method.id, { ...method, number });
    return [200, method];
  }

  /** What confirming with `payment_method` does: a known test method's behaviour, or 404. */
  private behaviourOf(id: string): "ok" | "decline" | "insufficient_funds" | "3ds" | undefined {
    if (TEST_PAYMENT_METHODS[id]) return TEST_PAYMENT_METHODS[id];
    const made = this.paymentMethods.get(id);
    return made ? (TEST_CARDS[made.number] ?? "ok") : undefined;
  }

  private route(method: string, path: string, form: URLSearchParams, authorization = ""): [number, unknown] {
    if (this.down) return [500, { error: { type: "api_error", message: "An unknown error occurred" } }];
    const parts = path.split("/").filter(Boolean);
    if (method === "POST" && path === "/v1/payment_methods")
      return this.createPaymentMethod(form, authorization);
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
      if (form.get("confirm") !== "true") return [200, intent];
      // `confirm: true`: made and confirmed in one request, answered as the confirm would be.
      const answer = this.act(intent, "confirm", form);
      if (this.declinesNameNoIntent && answer[0] === 402) {
        delete (answer[1] as { error: { payment_intent?: unknown } }).error.payment_intent;
      }
      return answer;
    }
    if (method === "POST" && path === "/v1/refunds") {
      const intent = this.intents.get(form.get("payment_intent") ?? "");
      if (!intent) return this.missing("payment_intent");
      const left = intent.amount_received - (this.refunded.get(intent.id) ?? 0);
      const amount = Number(form.get("amount") ?? left);
      if (form.has("amount") && (amount <= 0 || amount > left)) {
        return [
          400,
          {
            error: {
              type: "invalid_request_error",
              param: "amount",
              message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
            },
          },
        ];
      }
      this.refunded.set(intent.id, (this.refunded.get(intent.id) ?? 0) + amount);
      return [
        200,
        { id: this.id("re"), object: "refund", amount, status: "succeeded", payment_intent: intent.id },
      ];
    }
    if (method === "GET" && path === "/v1/charges") return this.charges(form);
    if (method === "POST" && path === "/v1/transfers") return this.createTransfer(form);
    if (parts[0] === "v1" && parts[1] === "transfers" && parts[2]) {
      const transfer = this.transfers.get(parts[2]);
      if (!transfer) return this.missing("id");
      if (method === "GET" && parts.length === 3) return [200, transfer];
      if (method === "POST" && parts[3] === "reversals" && parts.length === 4) {
        return this.reverse(transfer, form);
      }
    }
    if (method === "GET" && path === "/v1/payment_intents/search") return this.search(form);
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

  /** A card authorised: held (manual capture), or charged at once (automatic). */
  private authorise(intent: Intent) {
    if (intent.capture_method === "manual") {
      intent.status = "requires_capture";
      intent.amount_capturable = intent.amount;
    } else {
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
    }
  }

  /** `GET /v1/payment_intents/search?query=metadata['payment_id']:'…'`: the one query the service asks. */
  private search(form: URLSearchParams): [number, unknown] {
    const asked = /^metadata\['payment_id'\]:'([^']+)'$/.exec(form.get("query") ?? "");
    if (!asked)
      return [400, { error: { type: "invalid_request_error", message: "Unsupported search query" } }];
    const data = [...this.intents.values()].filter(
      (intent) => (intent.metadata as Record<string, string> | undefined)?.payment_id === asked[1],
    );
    return [200, { object: "search_result", data, has_more: false, next_page: null }];
  }

  /** `GET /v1/charges?payment_intent=…`: the intent's charge, what it captured and refunded. */
  private charges(form: URLSearchParams): [number, unknown] {
    const intent = this.intents.get(form.get("payment_intent") ?? "");
    const data =
      intent?.latest_charge == null
        ? []
        : [
            {
              id: intent.latest_charge,
              object: "charge",
              amount: intent.amount,
              amount_captured: intent.amount_received,
              amount_refunded: this.refunded.get(intent.id) ?? 0,
              currency: intent.currency,
              payment_intent: intent.id,
              balance_transaction: null,
            },
          ];
    return [200, { object: "list", data, has_more: false, url: "/v1/charges" }];
  }

  /** `POST /v1/transfers`, as Stripe checks it: a known destination able to receive, a real charge. */
  private createTransfer(form: URLSearchParams): [number, unknown] {
    const refuse = (code: string, param: string, message: string): [number, unknown] => [
      400,
      { error: { type: "invalid_request_error", code, param, message } },
    ];
    const destination = form.get("destination") ?? "";
    const capability = this.connectedAccounts.get(destination);
    if (!capability)
      return refuse("resource_missing", "destination", `No such destination: '${destination}'`);
    if (capability !== "active") {
      return refuse(
        "insufficient_capabilities_for_transfer",
        "destination",
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
      );
    }
    const amount = Number(form.get("amount"));
    const source = form.get("source_transaction");
    if (source) {
      const charged = [...this.intents.values()].find((i) => i.latest_charge === source);
      if (charged?.status !== "succeeded") {
        return refuse("resource_missing", "source_transaction", `No such charge: '${source}'`);
      }
      const sent = [...this.transfers.values()]
        .filter((t) => t.source_transaction === source)
        .reduce((sum, t) => sum + t.amount, 0);
      if (sent + amount > charged.amount_received) {
        return refuse("balance_insufficient", "amount", "The transfer exceeds the source transaction");
      }
    }
    const transfer: Transfer = {
      id: this.id("tr"),
      object: "transfer",
      amount,
      amount_reversed: 0,
      currency: form.get("currency") ?? "",
      destination,
      source_transaction: source,
      transfer_group: form.get("transfer_group"),
      metadata: this.metadata(form),
      reversed: false,
    };
    this.transfers.set(transfer.id, transfer);
    return [200, transfer];
  }

  /** `POST /v1/transfers/{id}/reversals`: all that is left by default, never more. */
  private reverse(transfer: Transfer, form: URLSearchParams): [number, unknown] {
    const left = transfer.amount - transfer.amount_reversed;
    const amount = form.has("amount") ? Number(form.get("amount")) : left;
    if (left <= 0 || amount <= 0 || amount > left) {
      return [
        400,
        {
          error: {
            type: "invalid_request_error",
            param: "amount",
            message: `You cannot reverse ${amount}: only ${left} of the transfer is left`,
          },
        },
      ];
    }
    transfer.amount_reversed += amount;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    const reversal = {
      id: this.id("trr"),
      object: "transfer_reversal",
      amount,
      currency: transfer.currency,
      transfer: transfer.id,
      metadata: this.metadata(form),
    };
    return [200, reversal];
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
      const paymentMethod = form.get("payment_method");
      const behaviour = paymentMethod ? this.behaviourOf(paymentMethod) : "ok";
      if (!behaviour) {
        return [
          400,
          {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              param: "payment_method",
              message: `No such PaymentMethod: '${paymentMethod}'`,
            },
          },
        ];
      }
      if (behaviour === "decline" || behaviour === "insufficient_funds") {
        const error = {
          type: "card_error",
          code: "card_declined",
          decline_code: behaviour === "decline" ? "generic_decline" : "insufficient_funds",
          message: behaviour === "decline" ? "Your card was declined." : "Your card has insufficient funds.",
        };
        intent.last_payment_error = error;
        return [402, { error: { ...error, payment_intent: intent } }];
      }
      if (behaviour === "3ds") {
        // With a return_url Stripe answers a redirect to the issuer's page, which comes back to it.
        intent.status = "requires_action";
        intent.next_action = {
          type: "redirect_to_url",
          redirect_to_url: { url: `${this.origin}/3ds/${intent.id}`, return_url: form.get("return_url") },
        };
        return [200, intent];
      }
      if (form.get("payment_method_data[type]") === "us_bank_account") {
        intent.status = "processing";
      } else {
        this.authorise(intent);
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

// The Stripe stand-in's payment resources (test/helpers/stripe-stand-in.ts routes requests to
// them): payment methods made from Stripe's test cards, payment intents and what confirm, capture
// and cancel do to them, their search, their charges and their refunds, answered the way Stripe's
// API reference documents (objects, 402 card errors, 400 state errors, 404 for what it never made).

export interface Intent {
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

export interface PaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  billing_details: { email: string | null };
}

/** What the payment handlers read and change of the stand-in (its public state). */
export interface PaymentsState {
  readonly intents: Map<string, Intent>;
  readonly paymentMethods: Map<string, PaymentMethod & { number: string }>;
  readonly refunded: Map<string, number>;
  readonly origin: string;
  readonly declinesNameNoIntent: boolean;
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

/** A request's `metadata[…]` fields, as the object's `metadata`. */
export function metadata(form: URLSearchParams) {
  const out: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) out[m[1]] = v;
  }
  return out;
}

/** Stripe's 404 for an object it does not have. */
export function missing(param: string): [number, unknown] {
  return [
    404,
    {
      error: { type: "invalid_request_error", code: "resource_missing", param, message: "No such object" },
    },
  ];
}

/** A card authorised: held (manual capture), or charged at once (automatic). */
export function authorise(intent: Intent) {
  if (intent.capture_method === "manual") {
    intent.status = "requires_capture";
    intent.amount_capturable = intent.amount;
  } else {
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
  }
}

/** The handlers of `/v1/payment_methods`, `/v1/payment_intents…`, `/v1/charges` and `/v1/refunds`. */
export class PaymentsApi {
  private readonly stand: PaymentsState;
  /** The stand-in's maker of ids (`pi_standin7`), one counter with its request ids. */
  private readonly id: (prefix: string) => string;

  constructor(stand: PaymentsState, id: (prefix: string) => string) {
    this.stand = stand;
    this.id = id;
  }

  /** `POST /v1/payment_methods`, as Stripe.js calls it with the publishable key. */
  createPaymentMethod(form: URLSearchParams, authorization: string): [number, unknown] {
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
    this.stand.paymentMethods.set(method.id, { ...method, number });
    return [200, method];
  }

  /** What confirming with `payment_method` does: a known test method's behaviour, or 404. */
  private behaviourOf(id: string): "ok" | "decline" | "insufficient_funds" | "3ds" | undefined {
    if (TEST_PAYMENT_METHODS[id]) return TEST_PAYMENT_METHODS[id];
    const made = this.stand.paymentMethods.get(id);
    return made ? (TEST_CARDS[made.number] ?? "ok") : undefined;
  }

  /** `POST /v1/payment_intents`, confirmed in the same request when `confirm` is `true`. */
  createIntent(form: URLSearchParams): [number, unknown] {
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
      metadata: metadata(form),
    };
    this.stand.intents.set(intent.id, intent);
    if (form.get("confirm") !== "true") return [200, intent];
    // `confirm: true`: made and confirmed in one request, answered as the confirm would be.
    const answer = this.act(intent, "confirm", form);
    if (this.stand.declinesNameNoIntent && answer[0] === 402) {
      delete (answer[1] as { error: { payment_intent?: unknown } }).error.payment_intent;
    }
    return answer;
  }

  /** `POST /v1/refunds`: what is left of the intent's charge by default, never more. */
  refund(form: URLSearchParams): [number, unknown] {
    const intent = this.stand.intents.get(form.get("payment_intent") ?? "");
    if (!intent) return missing("payment_intent");
    const left = intent.amount_received - (this.stand.refunded.get(intent.id) ?? 0);
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
    this.stand.refunded.set(intent.id, (this.stand.refunded.get(intent.id) ?? 0) + amount);
    return [
      200,
      { id: this.id("re"), object: "refund", amount, status: "succeeded", payment_intent: intent.id },
    ];
  }

  /** `GET /v1/payment_intents/search?query=metadata['payment_id']:'…'`: the one query the service asks. */
  search(form: URLSearchParams): [number, unknown] {
    const asked = /^metadata\['payment_id'\]:'([^']+)'$/.exec(form.get("query") ?? "");
    if (!asked)
      return [400, { error: { type: "invalid_request_error", message: "Unsupported search query" } }];
    const data = [...this.stand.intents.values()].filter(
      (intent) => (intent.metadata as Record<string, string> | undefined)?.payment_id === asked[1],
    );
    return [200, { object: "search_result", data, has_more: false, next_page: null }];
  }

  /** `GET /v1/charges?payment_intent=…`: the intent's charge, what it captured and refunded. */
  charges(form: URLSearchParams): [number, unknown] {
    const intent = this.stand.intents.get(form.get("payment_intent") ?? "");
    const data =
      intent?.latest_charge == null
        ? []
        : [
            {
              id: intent.latest_charge,
              object: "charge",
              amount: intent.amount,
              amount_captured: intent.amount_received,
              amount_refunded: this.stand.refunded.get(intent.id) ?? 0,
              currency: intent.currency,
              payment_intent: intent.id,
              balance_transaction: null,
            },
          ];
    return [200, { object: "list", data, has_more: false, url: "/v1/charges" }];
  }

  /** `POST /v1/payment_intents/{id}/{confirm|capture|cancel}`, refused in a state Stripe refuses. */
  act(intent: Intent, action: string, form: URLSearchParams): [number, unknown] {
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
          redirect_to_url: {
            url: `${this.stand.origin}/3ds/${intent.id}`,
            return_url: form.get("return_url"),
          },
        };
        return [200, intent];
      }
      if (form.get("payment_method_data[type]") === "us_bank_account") {
        intent.status = "processing";
      } else {
        authorise(intent);
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
}

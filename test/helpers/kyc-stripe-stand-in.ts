import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** Form fields as Stripe's API takes them (`individual[dob][day]` etc.); empty for multipart. */
  form: URLSearchParams;
  raw: Buffer;
}

/**
 * A loopback stand-in for the parts of Stripe's API the Connect provider uses, answering as
 * Stripe's API reference documents: accounts, external accounts, files and account links.
 */
export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Answer the next external-account create with Stripe's 400 invalid_request_error. */
  refuseNextBank = false;
  /** The latest account created; earlier ones are forgotten (each test onboards one at a time). */
  account: Record<string, any> | null = null;
  #created = 0;
  #server: Server | null = null;

  async start(): Promise<number> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        const isForm = String(req.headers["content-type"] ?? "").startsWith(
          "application/x-www-form-urlencoded",
        );
        const url = new URL(req.url ?? "/", "http://stand-in");
        const form = isForm ? new URLSearchParams(raw.toString()) : url.searchParams;
        this.requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, form, raw });
        const [status, body] = this.#answer(req.method ?? "", url.pathname, form);
        res.writeHead(status, {
          "content-type": "application/json",
          "request-id": `req_${this.requests.length}`,
        });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    return (this.#server.address() as AddressInfo).port;
  }

  async stop() {
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  #answer(method: string, path: string, form: URLSearchParams): [number, unknown] {
    if (method === "POST" && path === "/v1/accounts") {
      this.#created++;
      const id = `acct_${this.#created}StandIn`;
      this.account = {
        id,
        object: "account",
        type: form.get("type"),
        country: form.get("country"),
        email: form.get("email"),
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        capabilities: { card_payments: "inactive", transfers: "inactive" },
        requirements: {
          currently_due: ["external_account", "individual.first_name", "tos_acceptance.date"],
          eventually_due: ["external_account", "individual.first_name", "individual.verification.document"],
          past_due: [],
          errors: [],
          disabled_reason: "requirements.past_due",
        },
        settings: { payouts: { schedule: { interval: "daily", delay_days: 2 } } },
        external_accounts: {
          object: "list",
          data: [],
          has_more: false,
          url: `/v1/accounts/${id}/external_accounts`,
        },
        metadata: { kyc_id: form.get("metadata[kyc_id]") },
      };
      return [200, this.account];
    }
    if (!this.account) return [404, { error: { type: "invalid_request_error", message: "No such account" } }];
    const accountPath = `/v1/accounts/${this.account.id}`;
    if (method === "GET" && path === accountPath) return [200, this.account];
    if (method === "POST" && path === accountPath) {
      if (form.get("individual[first_name]")) {
        this.account.details_submitted = true;
        this.account.capabilities = { card_payments: "pending", transfers: "pending" };
        this.account.requirements.currently_due = ["external_account", "individual.verification.document"];
      }
      return [200, this.account];
    }
    if (method === "POST" && path === `${accountPath}/external_accounts`) {
      if (this.refuseNextBank) {
        this.refuseNextBank = false;
        return [
          400,
          {
            error: {
              type: "invalid_request_error",
              code: "account_number_invalid",
              message: "The account number is invalid",
              param: "external_account[account_number]",
            },
          },
        ];
      }
      const bank = {
        id: `ba_${this.#created}StandIn`,
        object: "bank_account",
        account: this.account.id,
        bank_name: "STRIPE TEST BANK",
        country: form.get("external_account[country]"),
        currency: form.get("external_account[currency]"),
        last4: String(form.get("external_account[account_number]")).slice(-4),
        routing_number: form.get("external_account[routing_number]"),
        status: "new",
        default_for_currency: true,
      };
      this.account.external_accounts.data.push(bank);
      return [200, bank];
    }
    if (method === "POST" && path === "/v1/files") {
      return [200, { id: "file_1StandIn", object: "file", purpose: "identity_document", size: 9 }];
    }
    if (method === "POST" && path === "/v1/account_links") {
      return [
        200,
        {
          object: "account_link",
          created: 1_700_000_000,
          expires_at: 1_700_000_300,
          url: `https://connect.stripe.com/setup/s/${form.get("account")}/standin`,
        },
      ];
    }
    return [
      404,
      { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } },
    ];
  }
}

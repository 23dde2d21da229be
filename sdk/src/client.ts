import { type Call, type ClientOptions, Http, type RequestOptions } from "./http.ts";
import type { paths } from "./openapi.ts";
import { List } from "./paging.ts";
import type { AnswerOf, BodyOf, EnvelopeItemOf, ItemOf, QueryOf } from "./types.ts";

type Get<P extends keyof paths> = AnswerOf<P, "get">;
type Post<P extends keyof paths> = AnswerOf<P, "post">;
type Patch<P extends keyof paths> = AnswerOf<P, "patch">;

/**
 * The service's API, grouped as the API groups it: `client.payments.create(appId, body)`. Every
 * POST made with a credential carries an Idempotency-Key (yours or one made per call) and is
 * retried safely; lists page by cursor (`for await`); failures throw `ApiError` or
 * `ConnectionError`.
 */
export class Client {
  readonly #http: Http;

  constructor(options: ClientOptions) {
    this.#http = new Http(options);
  }

  async #data<T>(call: Call, options?: RequestOptions): Promise<T> {
    return (await this.#http.request<T>(call, options)).data;
  }

  #list<P extends keyof paths>(
    path: P,
    params: Record<string, string>,
    query?: object,
    options?: RequestOptions,
  ) {
    const call: Call = { method: "GET", path, params, query: query as Call["query"] };
    return new List<ItemOf<P> & { id: string }>(this.#http, call, options);
  }

  /** A list that answers `{data: [...]}` (the KYC list, as the interface states it). */
  #envelopeList<P extends keyof paths>(path: P, params: Record<string, string>, query?: object) {
    const call: Call = { method: "GET", path, params, query: query as Call["query"] };
    type Item = EnvelopeItemOf<P> & { id: string };
    return new List<Item>(this.#http, call, {}, (answer) => (answer as { data: Item[] }).data);
  }

  #post<T>(path: keyof paths, params: Record<string, string>, body: unknown, options?: RequestOptions) {
    return this.#data<T>({ method: "POST", path, params, body, idempotent: true }, options);
  }

  #patch<T>(path: keyof paths, params: Record<string, string>, body: unknown, options?: RequestOptions) {
    return this.#data<T>({ method: "PATCH", path, params, body }, options);
  }

  #get<T>(path: keyof paths, params: Record<string, string>, query?: object, options?: RequestOptions) {
    return this.#data<T>({ method: "GET", path, params, query: query as Call["query"] }, options);
  }

  #delete(path: keyof paths, params: Record<string, string>, options?: RequestOptions) {
    return this.#data<undefined>({ method: "DELETE", path, params }, options);
  }

  /** Accounts and sessions. `signUp` and `logIn` make the client use the new session's token. */
  readonly auth = {
    signUp: async (body: BodyOf<"/auth/signup", "post">, options?: RequestOptions) => {
      const call: Call = { method: "POST", path: "/auth/signup", body };
      const session = await this.#data<Post<"/auth/signup">>(call, options);
      this.#http.authenticate(session.token);
      return session;
    },
    logIn: async (body: BodyOf<"/auth/login", "post">, options?: RequestOptions) => {
      const call: Call = { method: "POST", path: "/auth/login", body };
      const session = await this.#data<Post<"/auth/login">>(call, options);
      this.#http.authenticate(session.token);
      return session;
    },
    logOut: async (options?: RequestOptions) => {
      await this.#post<undefined>("/auth/logout", {}, undefined, options);
      this.#http.authenticate(undefined);
    },
    /** The log-in's second step, after `logIn` answered `two_factor_required` with a challenge. */
    logInTwoFactor: async (body: BodyOf<"/auth/login/2fa", "post">, options?: RequestOptions) => {
      const call: Call = { method: "POST", path: "/auth/login/2fa", body };
      const session = await this.#data<Post<"/auth/login/2fa">>(call, options);
      this.#http.authenticate(session.token);
      return session;
    },
    requestPasswordReset: (body: BodyOf<"/auth/password-reset", "post">) =>
      this.#post<undefined>("/auth/password-reset", {}, body),
    confirmPasswordReset: (body: BodyOf<"/auth/password-reset/confirm", "post">) =>
      this.#post<undefined>("/auth/password-reset/confirm", {}, body),
    verifyEmail: (body: BodyOf<"/auth/verify-email", "post">) =>
      this.#post<undefined>("/auth/verify-email", {}, body),
    resendVerification: () => this.#post<undefined>("/auth/verify-email/resend", {}, undefined),
  };

  readonly users = {
    me: (options?: RequestOptions) => this.#get<Get<"/users/me">>("/users/me", {}, undefined, options),
    update: (body: BodyOf<"/users/me", "patch">) => this.#patch<Patch<"/users/me">>("/users/me", {}, body),
    changePassword: (body: BodyOf<"/users/me/password", "post">) =>
      this.#post<undefined>("/users/me/password", {}, body),
    sessions: (query?: QueryOf<"/users/me/sessions", "get">) => this.#list("/users/me/sessions", {}, query),
    endSession: (sessionId: string) =>
      this.#delete("/users/me/sessions/{session_id}", { session_id: sessionId }),
    beginTwoFactor: () => this.#post<Post<"/users/me/two-factor">>("/users/me/two-factor", {}, undefined),
    enableTwoFactor: (body: BodyOf<"/users/me/two-factor/enable", "post">) =>
      this.#post<Post<"/users/me/two-factor/enable">>("/users/me/two-factor/enable", {}, body),
    disableTwoFactor: (body: BodyOf<"/users/me/two-factor/disable", "post">) =>
      this.#post<undefined>("/users/me/two-factor/disable", {}, body),
    regenerateRecoveryCodes: (body: BodyOf<"/users/me/two-factor/recovery-codes", "post">) =>
      this.#post<Post<"/users/me/two-factor/recovery-codes">>(
        "/users/me/two-factor/recovery-codes",
        {},
        body,
      ),
  };

  readonly apps = {
    create: (body: BodyOf<"/apps", "post">, options?: RequestOptions) =>
      this.#post<Post<"/apps">>("/apps", {}, body, options),
    list: (query?: QueryOf<"/apps", "get">) => this.#list("/apps", {}, query),
    get: (appId: string) => this.#get<Get<"/apps/{app_id}">>("/apps/{app_id}", { app_id: appId }),
    update: (appId: string, body: BodyOf<"/apps/{app_id}", "patch">) =>
      this.#patch<Patch<"/apps/{app_id}">>("/apps/{app_id}", { app_id: appId }, body),
    delete: (appId: string) => this.#delete("/apps/{app_id}", { app_id: appId }),
    /** The app's audit log (owners), newest first, with its filters. */
    auditLog: (appId: string, query?: QueryOf<"/apps/{app_id}/audit-log", "get">) =>
      this.#list("/apps/{app_id}/audit-log", { app_id: appId }, query),
  };

  readonly apiKeys = {
    create: (appId: string, body: BodyOf<"/apps/{app_id}/api-keys", "post">, options?: RequestOptions) =>
      this.#post<Post<"/apps/{app_id}/api-keys">>(
        "/apps/{app_id}/api-keys",
        { app_id: appId },
        body,
        options,
      ),
    list: (appId: string, query?: QueryOf<"/apps/{app_id}/api-keys", "get">) =>
      this.#list("/apps/{app_id}/api-keys", { app_id: appId }, query),
    revoke: (appId: string, keyId: string) =>
      this.#delete("/apps/{app_id}/api-keys/{key_id}", { app_id: appId, key_id: keyId }),
  };

  readonly members = {
    invite: (appId: string, body: BodyOf<"/members/{app_id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/members/{app_id}">>("/members/{app_id}", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/members/{app_id}", "get">) =>
      this.#list("/members/{app_id}", { app_id: appId }, query),
    get: (appId: string, memberId: string) =>
      this.#get<Get<"/members/{app_id}/{member_id}">>("/members/{app_id}/{member_id}", {
        app_id: appId,
        member_id: memberId,
      }),
    update: (appId: string, memberId: string, body: BodyOf<"/members/{app_id}/{member_id}", "patch">) =>
      this.#patch<Patch<"/members/{app_id}/{member_id}">>(
        "/members/{app_id}/{member_id}",
        { app_id: appId, member_id: memberId },
        body,
      ),
    remove: (appId: string, memberId: string) =>
      this.#delete("/members/{app_id}/{member_id}", { app_id: appId, member_id: memberId }),
    accept: (body: BodyOf<"/members/accept", "post">, options?: RequestOptions) =>
      this.#post<Post<"/members/accept">>("/members/accept", {}, body, options),
    /** Sends a pending invitation again: a new token and a new week. */
    resend: (appId: string, memberId: string) =>
      this.#post<Post<"/members/{app_id}/{member_id}/resend">>(
        "/members/{app_id}/{member_id}/resend",
        { app_id: appId, member_id: memberId },
        undefined,
      ),
  };

  readonly wallets = {
    create: (appId: string, body: BodyOf<"/wallets/{app_id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/wallets/{app_id}">>("/wallets/{app_id}", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/wallets/{app_id}", "get">) =>
      this.#list("/wallets/{app_id}", { app_id: appId }, query),
    get: (appId: string, walletId: string) =>
      this.#get<Get<"/wallets/{app_id}/{wallet_id}">>("/wallets/{app_id}/{wallet_id}", {
        app_id: appId,
        wallet_id: walletId,
      }),
    update: (appId: string, walletId: string, body: BodyOf<"/wallets/{app_id}/{wallet_id}", "patch">) =>
      this.#patch<Patch<"/wallets/{app_id}/{wallet_id}">>(
        "/wallets/{app_id}/{wallet_id}",
        { app_id: appId, wallet_id: walletId },
        body,
      ),
    delete: (appId: string, walletId: string) =>
      this.#delete("/wallets/{app_id}/{wallet_id}", { app_id: appId, wallet_id: walletId }),
  };

  readonly triggers = {
    create: (appId: string, body: BodyOf<"/triggers/{app_id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/triggers/{app_id}">>("/triggers/{app_id}", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/triggers/{app_id}", "get">) =>
      this.#list("/triggers/{app_id}", { app_id: appId }, query),
    get: (appId: string, triggerId: string) =>
      this.#get<Get<"/triggers/{app_id}/{trigger_id}">>("/triggers/{app_id}/{trigger_id}", {
        app_id: appId,
        trigger_id: triggerId,
      }),
    update: (appId: string, triggerId: string, body: BodyOf<"/triggers/{app_id}/{trigger_id}", "patch">) =>
      this.#patch<Patch<"/triggers/{app_id}/{trigger_id}">>(
        "/triggers/{app_id}/{trigger_id}",
        { app_id: appId, trigger_id: triggerId },
        body,
      ),
    delete: (appId: string, triggerId: string) =>
      this.#delete("/triggers/{app_id}/{trigger_id}", { app_id: appId, trigger_id: triggerId }),
    render: (
      appId: string,
      triggerId: string,
      body: BodyOf<"/triggers/{app_id}/{trigger_id}/render", "post">,
    ) =>
      this.#post<Post<"/triggers/{app_id}/{trigger_id}/render">>(
        "/triggers/{app_id}/{trigger_id}/render",
        { app_id: appId, trigger_id: triggerId },
        body,
      ),
  };

  readonly prices = {
    create: (appId: string, body: BodyOf<"/prices/{app_id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/prices/{app_id}">>("/prices/{app_id}", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/prices/{app_id}", "get">) =>
      this.#list("/prices/{app_id}", { app_id: appId }, query),
    get: (appId: string, priceId: string) =>
      this.#get<Get<"/prices/{app_id}/{price_id}">>("/prices/{app_id}/{price_id}", {
        app_id: appId,
        price_id: priceId,
      }),
    update: (appId: string, priceId: string, body: BodyOf<"/prices/{app_id}/{price_id}", "patch">) =>
      this.#patch<Patch<"/prices/{app_id}/{price_id}">>(
        "/prices/{app_id}/{price_id}",
        { app_id: appId, price_id: priceId },
        body,
      ),
    delete: (appId: string, priceId: string) =>
      this.#delete("/prices/{app_id}/{price_id}", { app_id: appId, price_id: priceId }),
    previewPriceItem: (
      appId: string,
      priceId: string,
      query?: QueryOf<"/prices/{app_id}/{price_id}/price-item", "get">,
    ) =>
      this.#get<Get<"/prices/{app_id}/{price_id}/price-item">>(
        "/prices/{app_id}/{price_id}/price-item",
        { app_id: appId, price_id: priceId },
        query,
      ),
  };

  readonly payments = {
    create: (appId: string, body: BodyOf<"/payments/{app_id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/payments/{app_id}">>("/payments/{app_id}", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/payments/{app_id}", "get">) =>
      this.#list("/payments/{app_id}", { app_id: appId }, query),
    get: (appId: string, paymentId: string, options?: RequestOptions) =>
      this.#get<Get<"/payments/{app_id}/{payment_id}">>(
        "/payments/{app_id}/{payment_id}",
        { app_id: appId, payment_id: paymentId },
        undefined,
        options,
      ),
    confirm: (
      appId: string,
      paymentId: string,
      body: BodyOf<"/payments/{app_id}/{payment_id}/confirm", "post">,
      options?: RequestOptions,
    ) =>
      this.#post<Post<"/payments/{app_id}/{payment_id}/confirm">>(
        "/payments/{app_id}/{payment_id}/confirm",
        { app_id: appId, payment_id: paymentId },
        body,
        options,
      ),
    cancel: (
      appId: string,
      paymentId: string,
      body: BodyOf<"/payments/{app_id}/{payment_id}/cancel", "post"> = {},
      options?: RequestOptions,
    ) =>
      this.#post<Post<"/payments/{app_id}/{payment_id}/cancel">>(
        "/payments/{app_id}/{payment_id}/cancel",
        { app_id: appId, payment_id: paymentId },
        body,
        options,
      ),
    refund: (
      appId: string,
      paymentId: string,
      body: BodyOf<"/payments/{app_id}/{payment_id}/refund", "post"> = {},
      options?: RequestOptions,
    ) =>
      this.#post<Post<"/payments/{app_id}/{payment_id}/refund">>(
        "/payments/{app_id}/{payment_id}/refund",
        { app_id: appId, payment_id: paymentId },
        body,
        options,
      ),
    retry: (appId: string, paymentId: string, options?: RequestOptions) =>
      this.#post<Post<"/payments/{app_id}/{payment_id}/retry">>(
        "/payments/{app_id}/{payment_id}/retry",
        { app_id: appId, payment_id: paymentId },
        undefined,
        options,
      ),
    /** The payment's status changes, oldest first: its timeline. */
    events: (
      appId: string,
      paymentId: string,
      query?: QueryOf<"/payments/{app_id}/{payment_id}/events", "get">,
    ) =>
      this.#list("/payments/{app_id}/{payment_id}/events", { app_id: appId, payment_id: paymentId }, query),
  };

  readonly auctions = {
    create: (appId: string, body: BodyOf<"/auctions/{id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/auctions/{id}">>("/auctions/{id}", { id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/auctions/{id}", "get">) =>
      this.#list("/auctions/{id}", { id: appId }, query),
    get: (appId: string, auctionId: string) =>
      this.#get<Get<"/auctions/{app_id}/{auction_id}">>("/auctions/{app_id}/{auction_id}", {
        app_id: appId,
        auction_id: auctionId,
      }),
    /** The interface's `PATCH /auctions/{id}`: answers the auction's id. */
    update: (auctionId: string, body: BodyOf<"/auctions/{id}", "patch">) =>
      this.#patch<Patch<"/auctions/{id}">>("/auctions/{id}", { id: auctionId }, body),
    delete: (appId: string, auctionId: string) =>
      this.#delete("/auctions/{app_id}/{auction_id}", { app_id: appId, auction_id: auctionId }),
    listBids: (
      appId: string,
      auctionId: string,
      query?: QueryOf<"/auctions/{app_id}/{auction_id}/bids", "get">,
    ) => this.#list("/auctions/{app_id}/{auction_id}/bids", { app_id: appId, auction_id: auctionId }, query),
    getBid: (appId: string, auctionId: string, bidId: string) =>
      this.#get<Get<"/auctions/{app_id}/{auction_id}/bids/{bid_id}">>(
        "/auctions/{app_id}/{auction_id}/bids/{bid_id}",
        { app_id: appId, auction_id: auctionId, bid_id: bidId },
      ),
  };

  readonly kyc = {
    create: (appId: string, body: BodyOf<"/apps/{app_id}/kycs", "post">, options?: RequestOptions) =>
      this.#post<Post<"/apps/{app_id}/kycs">>("/apps/{app_id}/kycs", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/apps/{app_id}/kycs", "get">) =>
      this.#envelopeList("/apps/{app_id}/kycs", { app_id: appId }, query),
    get: (appId: string, kycId: string) =>
      this.#get<Get<"/apps/{app_id}/kycs/{kyc_id}">>("/apps/{app_id}/kycs/{kyc_id}", {
        app_id: appId,
        kyc_id: kycId,
      }),
    update: (appId: string, kycId: string, body: BodyOf<"/apps/{app_id}/kycs/{kyc_id}", "patch">) =>
      this.#patch<Patch<"/apps/{app_id}/kycs/{kyc_id}">>(
        "/apps/{app_id}/kycs/{kyc_id}",
        { app_id: appId, kyc_id: kycId },
        body,
      ),
    delete: (appId: string, kycId: string) =>
      this.#delete("/apps/{app_id}/kycs/{kyc_id}", { app_id: appId, kyc_id: kycId }),
    refreshToken: (appId: string, kycId: string) =>
      this.#patch<Patch<"/apps/{app_id}/kycs/{kyc_id}/refresh-token">>(
        "/apps/{app_id}/kycs/{kyc_id}/refresh-token",
        { app_id: appId, kyc_id: kycId },
        undefined,
      ),
  };

  readonly webhooks = {
    create: (appId: string, body: BodyOf<"/webhooks/{app_id}", "post">, options?: RequestOptions) =>
      this.#post<Post<"/webhooks/{app_id}">>("/webhooks/{app_id}", { app_id: appId }, body, options),
    list: (appId: string, query?: QueryOf<"/webhooks/{app_id}", "get">) =>
      this.#list("/webhooks/{app_id}", { app_id: appId }, query),
    get: (appId: string, endpointId: string) =>
      this.#get<Get<"/webhooks/{app_id}/{id}">>("/webhooks/{app_id}/{id}", { app_id: appId, id: endpointId }),
    delete: (appId: string, endpointId: string) =>
      this.#delete("/webhooks/{app_id}/{id}", { app_id: appId, id: endpointId }),
    rotateSecret: (appId: string, endpointId: string, options?: RequestOptions) =>
      this.#post<Post<"/webhooks/{app_id}/{id}/rotate-secret">>(
        "/webhooks/{app_id}/{id}/rotate-secret",
        { app_id: appId, id: endpointId },
        undefined,
        options,
      ),
    listDeliveries: (
      appId: string,
      endpointId: string,
      query?: QueryOf<"/webhooks/{app_id}/{id}/deliveries", "get">,
    ) => this.#list("/webhooks/{app_id}/{id}/deliveries", { app_id: appId, id: endpointId }, query),
    /** A signed `webhook.test` event to this one endpoint; answers its delivery, still pending. */
    sendTest: (appId: string, endpointId: string, options?: RequestOptions) =>
      this.#post<Post<"/webhooks/{app_id}/{id}/test">>(
        "/webhooks/{app_id}/{id}/test",
        { app_id: appId, id: endpointId },
        undefined,
        options,
      ),
    replay: (appId: string, deliveryId: string, options?: RequestOptions) =>
      this.#post<Post<"/webhooks/{app_id}/deliveries/{delivery_id}/replay">>(
        "/webhooks/{app_id}/deliveries/{delivery_id}/replay",
        { app_id: appId, delivery_id: deliveryId },
        undefined,
        options,
      ),
  };

  readonly solana = {
    createTree: (
      appId: string,
      walletId: string,
      body: BodyOf<"/solana/compression/{app_id}/{wallet_id}/trees", "post">,
      options?: RequestOptions,
    ) =>
      this.#post<Post<"/solana/compression/{app_id}/{wallet_id}/trees">>(
        "/solana/compression/{app_id}/{wallet_id}/trees",
        { app_id: appId, wallet_id: walletId },
        body,
        options,
      ),
    listTrees: (appId: string, walletId: string) =>
      this.#get<Get<"/solana/compression/{app_id}/{wallet_id}/trees">>(
        "/solana/compression/{app_id}/{wallet_id}/trees",
        { app_id: appId, wallet_id: walletId },
      ),
    createCollection: (
      appId: string,
      walletId: string,
      body: BodyOf<"/solana/compression/{app_id}/{wallet_id}/collections", "post">,
      options?: RequestOptions,
    ) =>
      this.#post<Post<"/solana/compression/{app_id}/{wallet_id}/collections">>(
        "/solana/compression/{app_id}/{wallet_id}/collections",
        { app_id: appId, wallet_id: walletId },
        body,
        options,
      ),
    listCollections: (appId: string, walletId: string) =>
      this.#get<Get<"/solana/compression/{app_id}/{wallet_id}/collections">>(
        "/solana/compression/{app_id}/{wallet_id}/collections",
        { app_id: appId, wallet_id: walletId },
      ),
  };
}

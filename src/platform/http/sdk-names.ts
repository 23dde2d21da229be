// Where each operation lives in the SDK (`client.<group>.<method>`), named from its operationId and
// tag. One naming function for the SDK's generator (test/helpers/sdk-resources.ts writes
// sdk/src/resources.ts with it) and for the document's code samples (openapi-samples.ts), so a
// sample always calls the method the SDK has.

/** operationId -> why the SDK has no method for it. test/sdk/coverage.test.ts reads this list. */
export const EXCLUDED: Record<string, string> = {
  getInvitationPage: "an HTML page for people",
  getSandbox3dsPage: "an HTML page for people",
  getSandboxInboxPage: "an HTML page for people",
  getCheckoutPage: "an HTML page for people",
  getAuctionPage: "an HTML page for people",
  getKycWidget: "an HTML page for people",
  submitKycDetails: "the KYC page's own form post (answers a 303 redirect)",
  submitKycBankAccount: "the KYC page's own form post (answers a 303 redirect)",
  startKycOnboarding: "the KYC page's own form post (answers a 303 redirect)",
  uploadKycDocument: "the KYC page's own form post (answers a 303 redirect)",
  receiveProviderWebhook: "called by payment providers, not by integrators",
  streamAuctionEvents: "the public auction page's browser event stream (EventSource)",
  getAppIcon: "the image itself, for an <img> on a page (App.icon_url links to it)",
  streamEvents:
    "hand-written: `client.events.stream()` reads the server-sent events (sdk/src/event-stream.ts)",
};

/** Method names kept as the hand-written SDK named them (and as people read them). */
const NAMES: Record<string, string> = {
  signUp: "auth.signUp",
  logIn: "auth.logIn",
  logOut: "auth.logOut",
  getMe: "users.me",
  acceptInvitation: "members.accept",
  previewPriceItem: "prices.previewPriceItem",
  listPaymentEvents: "payments.events",
  listWebhookDeliveries: "webhooks.listDeliveries",
  replayWebhookDelivery: "webhooks.replay",
  sendWebhookTestEvent: "webhooks.sendTest",
  rotateWebhookSecret: "webhooks.rotateSecret",
};

/** The noun a group's operationIds repeat, dropped from its method names (`createPayment` -> `create`). */
const NOUNS: Record<string, string> = {
  apps: "App",
  members: "Member",
  apiKeys: "ApiKey",
  wallets: "Wallet",
  triggers: "Trigger",
  webhooks: "WebhookEndpoint",
  sandbox: "Sandbox",
  prices: "Price",
  payments: "Payment",
  checkout: "Checkout",
  auctions: "Auction",
  kyc: "Kyc",
  events: "Event",
};

/** `app_id` -> `appId`, `api-keys` -> `apiKeys`, `x-payment-token` -> `xPaymentToken`. */
export const camel = (name: string) => name.replace(/[-_ ]+(\w)/g, (_, c: string) => c.toUpperCase());

/** Where an operation lives: `[group, method]`, as in `client.payments.create`. */
export function methodOf(operation: { operationId: string; tags?: string[] }): [string, string] {
  const named = NAMES[operation.operationId];
  if (named) return named.split(".") as [string, string];
  const group = camel(operation.tags?.[0] ?? "misc");
  const noun = NOUNS[group];
  const id = operation.operationId;
  const verb = /^[a-z0-9]+/.exec(id)?.[0] ?? id;
  let rest = id.slice(verb.length);
  if (noun && rest.startsWith(noun)) {
    rest = rest.slice(noun.length).replace(/^(s|es)(?=[A-Z]|$)/, "");
  }
  return [group, verb + rest];
}

// What the Stripe payment provider's test files share (stripe.test.ts, stripe-webhooks.test.ts):
// the keys, and a provider made with them that reaches the loopback Stripe stand-in
// (test/helpers/stripe-stand-in.ts) through the SDK's host, port and protocol options.
import { after, before } from "node:test";
import { StripePaymentProvider } from "../../src/platform/providers/payments/stripe/provider.ts";
import { StripeStandIn } from "../helpers/stripe-stand-in.ts";

export const SECRET_KEY = "sk_test_standin123";
export const WEBHOOK_SECRET = "whsec_standinsecret";

/**
 * The file's stand-in, started before the file's tests and stopped after them, and a provider on it
 * (no retries), handed to `ready` once made. Call it at the top of a test file, so that its hooks
 * are that file's.
 */
export function useStripeProvider(ready: (provider: StripePaymentProvider) => void): StripeStandIn {
  const stand = new StripeStandIn();
  before(async () => {
    const port = await stand.start();
    ready(
      new StripePaymentProvider({
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        host: "127.0.0.1",
        port,
        protocol: "http",
        maxNetworkRetries: 0,
      }),
    );
  });
  after(async () => stand.stop());
  return stand;
}

// What the sandbox payment provider's test files share (sandbox.test.ts,
// sandbox-transfers.test.ts): each file's own app and a sandbox provider on its database, with a
// clock the tests move, idempotency keys, a test card and a card intent to pay.
import { SandboxPaymentProvider } from "../../src/platform/providers/payments/sandbox/provider.ts";
import type { PaymentMethodInput } from "../../src/platform/providers/payments/types.ts";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";

export const card = (number: string): PaymentMethodInput => ({
  type: "card",
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
});

/**
 * The file's app (without tenants), built before the file's tests, and a sandbox provider on its
 * database, handed to `ready` once made. Call it at the top of a test file, so that its hooks are
 * that file's.
 */
export function useSandboxProvider(ready: (provider: SandboxPaymentProvider) => void) {
  // The provider's own clock: these tests move it past the sandbox's settle delay.
  const clock = new FakeClock(new Date("2026-06-01T12:00:00Z"));
  let provider: SandboxPaymentProvider;
  let keyCounter = 0;
  const key = () => `key-${Date.now()}-${++keyCounter}`;

  const fx = useTestApp(
    {},
    {
      tenants: false,
      async setUp() {
        provider = new SandboxPaymentProvider({
          db: fx.app.deps.db,
          now: clock.now,
          publicUrl: "http://shop.test",
          settleAfterMs: 60_000,
        });
        ready(provider);
      },
    },
  );

  async function cardIntent(amount = 1250n) {
    return provider.createIntent({ amount, currency: "USD", method: "card" }, { idempotencyKey: key() });
  }

  return { clock, fx, key, cardIntent };
}

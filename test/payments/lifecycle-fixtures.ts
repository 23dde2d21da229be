// What lifecycle.test.ts and price-rules.test.ts share: each file's own app and a price of its
// owner's app that the file's payments pay.
import { type AppFixture, useTestApp } from "../helpers/fixture.ts";
import { createPrice } from "../helpers/prices.ts";

/**
 * Builds the file's app (useTestApp) and, before the file's tests, a price of its owner's app (20
 * usd, static), handed to `ready`. Call it at the top of a test file, so that its hooks are that
 * file's; it answers the app's fixture.
 */
export function useAppWithPrice(ready: (price: any) => void): AppFixture {
  const fx = useTestApp(
    {},
    {
      async setUp() {
        ready(
          await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
            amount: 20,
            currency: "usd",
          }),
        );
      },
    },
  );
  return fx;
}

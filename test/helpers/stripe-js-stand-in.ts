/**
 * A stand-in Stripe.js, served by the loopback Stripe stand-in (stripe-stand-in.ts) because the
 * test machine has no internet. It implements the part of Stripe.js v3 the hosted checkout uses,
 * built the way Stripe's is: `Stripe(pk)`, `elements().create("card")`, `mount()` put the card
 * inputs in a frame of the Stripe.js origin, and `createPaymentMethod()` asks that frame, which
 * posts the card to `POST /v1/payment_methods` with the publishable key and answers
 * `{paymentMethod}` or `{error}`. The card number never enters the checkout page itself.
 */
export const STRIPE_JS = `(() => {
  const origin = new URL(document.currentScript.src).origin;
  window.Stripe = (key) => {
    if (!/^pk_(test|live)_/.test(String(key))) throw new Error("Stripe.js needs a publishable key (pk_...)");
    const elements = () => ({
      create(type) {
        if (type !== "card") throw new Error("this stand-in only has the card Element");
        let frame = null;
        let ready = null;
        return {
          mount(target) {
            const host = typeof target === "string" ? document.querySelector(target) : target;
            frame = document.createElement("iframe");
            frame.name = "__privateStripeFrame_card";
            frame.title = "Secure card payment input frame";
            frame.src = origin + "/v3/elements/card.html";
            frame.style.border = "0";
            frame.style.width = "100%";
            frame.style.height = "2.4rem";
            ready = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
            host.appendChild(frame);
          },
          ask(message) {
            if (!frame) return Promise.reject(new Error("the card Element is not mounted"));
            return ready.then(() => new Promise((resolve) => {
              const id = Math.random().toString(36).slice(2);
              const answer = (event) => {
                if (event.origin !== origin || !event.data || event.data.id !== id) return;
                window.removeEventListener("message", answer);
                resolve(event.data.result);
              };
              window.addEventListener("message", answer);
              frame.contentWindow.postMessage({ ...message, id }, origin);
            }));
          },
        };
      },
    });
    return {
      elements,
      createPaymentMethod(data) {
        if (!data || data.type !== "card" || !data.card) {
          return Promise.resolve({ error: { type: "invalid_request_error", message: "type card and a card Element are needed" } });
        }
        return data.card.ask({ action: "createPaymentMethod", key, billing_details: data.billing_details || {} });
      },
    };
  };
})();
`;

/** The card Element's frame: it holds the inputs and makes the payment method with the key. */
export const CARD_FRAME_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card</title></head>
<body style="margin:0;font:14px system-ui,sans-serif;display:flex;gap:.4rem">
<input name="cardnumber" aria-label="Card number" placeholder="Card number" inputmode="numeric" autocomplete="cc-number" style="flex:3">
<input name="exp-date" aria-label="Expiry" placeholder="MM / YY" autocomplete="cc-exp" style="flex:1">
<input name="cvc" aria-label="CVC" placeholder="CVC" inputmode="numeric" autocomplete="cc-csc" style="flex:1">
<script>
const field = (name) => document.querySelector('[name="' + name + '"]').value.replace(/\\s/g, "");
window.addEventListener("message", async (event) => {
  if (event.source !== window.parent || !event.data || event.data.action !== "createPaymentMethod") return;
  const [month, year] = field("exp-date").split("/");
  const form = new URLSearchParams({
    type: "card",
    "card[number]": field("cardnumber"),
    "card[exp_month]": month || "",
    "card[exp_year]": year || "",
    "card[cvc]": field("cvc"),
  });
  for (const [k, v] of Object.entries(event.data.billing_details)) if (v) form.set("billing_details[" + k + "]", v);
  let result;
  try {
    const answer = await fetch("/v1/payment_methods", {
      method: "POST",
      headers: { authorization: "Bearer " + event.data.key, "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    const body = await answer.json();
    result = answer.ok ? { paymentMethod: body } : { error: body.error };
  } catch (error) {
    result = { error: { type: "api_connection_error", message: "Stripe could not be reached" } };
  }
  window.parent.postMessage({ id: event.data.id, result }, event.origin);
});
</script>
</body></html>`;

/** The issuer's 3-D Secure page a `redirect_to_url` next action sends the shopper to. */
export function threeDSecurePage(intentId: string): string {
  const action = `/3ds/${encodeURIComponent(intentId)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3D Secure test page</title></head>
<body><h1>3D Secure 2 test page</h1>
<form method="post" action="${action}"><input type="hidden" name="result" value="pass"><button id="pass">Complete authentication</button></form>
<form method="post" action="${action}"><input type="hidden" name="result" value="fail"><button id="fail">Fail authentication</button></form>
</body></html>`;
}

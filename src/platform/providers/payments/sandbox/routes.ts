import { Type } from "typebox";
import { Body, Nullable } from "../../../http/schemas.ts";
import type { Server } from "../../../http/server.ts";
import type { SandboxPaymentProvider } from "./provider.ts";

const Params = Type.Object({ intent_id: Type.String({ pattern: "^pi_[0-9a-z]{26}$" }) });
const tags = ["sandbox"];

// The page a 3-D Secure card's next action points at, standing in for the issuer's challenge.
// Plain HTML and a few lines of script: the intent id is validated by the route's pattern, so it
// is safe to place in the page as is.
function challengePage(intentId: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox 3-D Secure</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto">
<h1>3-D Secure (sandbox)</h1>
<p>This stands in for the card issuer's check of payment <code>${intentId}</code>. Nothing is charged.</p>
<button id="pass" type="button">Complete authentication</button>
<button id="fail" type="button">Fail authentication</button>
<p id="result" role="status"></p>
<script>
for (const outcome of ["pass", "fail"]) {
  document.getElementById(outcome).addEventListener("click", async () => {
    const answer = await fetch(location.pathname, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome }),
    });
    const body = await answer.json();
    if (!answer.ok) { document.getElementById("result").textContent = body.detail; return; }
    if (body.return_url) {
      const back = new URL(body.return_url);
      back.searchParams.set("payment_intent", body.id);
      location.assign(back.toString());
    } else {
      document.getElementById("result").textContent = "Authentication " + (outcome === "pass" ? "completed" : "failed");
    }
  });
}
</script>
</body></html>`;
}

/** The sandbox's 3-D Secure challenge: served only in sandbox mode, to the shopper's browser. */
export async function sandboxChallengeRoutes(app: Server, sandbox: SandboxPaymentProvider) {
  app.get(
    "/sandbox/3ds/:intent_id",
    {
      config: { public: true },
      schema: { tags, summary: "Sandbox 3-D Secure challenge page", params: Params },
    },
    async (request, reply) => {
      await sandbox.findIntent(request.params.intent_id);
      return reply.type("text/html; charset=utf-8").send(challengePage(request.params.intent_id));
    },
  );

  app.post(
    "/sandbox/3ds/:intent_id",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Answer the sandbox 3-D Secure challenge",
        params: Params,
        body: Body({ outcome: Type.Union([Type.Literal("pass"), Type.Literal("fail")]) }),
        response: {
          200: Type.Object({ id: Type.String(), status: Type.String(), return_url: Nullable(Type.String()) }),
        },
      },
    },
    async (request) => {
      const before = await sandbox.findIntent(request.params.intent_id);
      const after = await sandbox.completeAuthentication(
        request.params.intent_id,
        request.body.outcome === "pass",
      );
      return { id: after.id, status: after.status, return_url: before.nextAction?.returnUrl ?? null };
    },
  );
}

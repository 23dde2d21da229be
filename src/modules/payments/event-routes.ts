import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { oneOf } from "../../platform/http/literals.ts";
import * as route from "../../platform/http/routes.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Timestamp } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { listPaymentEvents } from "./payment-events.ts";
import { PaymentParams } from "./schemas.ts";
import { PAYMENT_STATUSES } from "./tables.ts";

const statusOf = (description: string) => oneOf(PAYMENT_STATUSES, { description });

export const PaymentEvent = withExamples(
  Type.Object(
    {
      id: Type.String({ description: "The event's id (`pev_…`)" }),
      payment_id: Type.String({ description: "The payment that moved (`pay_…`)" }),
      from_status: Type.Union([statusOf("The status it left"), Type.Null()], {
        description: "The status the payment left; null on its first event, its creation as `pending`",
      }),
      to_status: statusOf('The status the payment reached (docs/payments.md, "States")'),
      actor: Type.String({
        description:
          "Who moved it: `user:<user id>` or `api_key:<key id>` (a call of the API), `shopper` (the " +
          "hosted checkout) or `system` (the service's own jobs: provider answers, the contract call)",
      }),
      reason: Type.Union([Type.String(), Type.Null()], {
        description:
          "Why, in a word or a sentence (`created`, `captured`, a decline's message, …); null when none",
      }),
      created_at: Timestamp,
    },
    { description: "One status change of a payment" },
  ),
  {
    id: "pev_01jdq3m5k8x2v7c9b4n6p0r1st",
    payment_id: "pay_01jdq3k2a9z4y6w8v1t3s5r7qp",
    from_status: "hold",
    to_status: "paid",
    actor: "system",
    reason: "captured",
    created_at: "2026-11-24T12:00:02.000Z",
  },
);

nameSchemas({ PaymentEvent });

/** `GET /payments/{app_id}/{payment_id}/events`: a payment's timeline (docs/payments.md). */
export async function paymentEventRoutes(app: Server, deps: Deps) {
  route.list(
    app,
    "/payments/:app_id/:payment_id/events",
    {
      operationId: "listPaymentEvents",
      tags: ["payments"],
      summary: "The payment's status changes, oldest first: who moved it, when and why",
      params: PaymentParams,
      item: PaymentEvent,
      answer: "Status changes, oldest first",
    },
    (request, page) =>
      listPaymentEvents(deps, request.actor, request.params.app_id, request.params.payment_id, page),
  );
}

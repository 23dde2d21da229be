import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { getBalanceHistory } from "./history.ts";
import { getReconciliation, listReconciliations, requestReconciliation } from "./reconciliations.ts";
import { balanceTransactionsCsv, sellerPayouts } from "./reports.ts";
import {
  BalanceHistory,
  BalanceHistoryQuery,
  Balances,
  BalanceTransaction,
  ListBalanceTransactionsQuery,
  Reconciliation,
  ReconciliationParams,
  ReportQuery,
  SellerPayouts,
} from "./schemas.ts";
import * as service from "./service.ts";

const tags = ["ledger"];

export async function ledgerRoutes(app: Server, deps: Deps) {
  route.get(
    app,
    "/balances/:app_id",
    {
      operationId: "getBalances",
      tags,
      summary: "The app's balances per currency: available, pending, owed to and paid to sellers",
      params: AppParams,
      resource: Balances,
    },
    (request) => service.getBalances(deps, request.actor, request.params.app_id),
  );

  route.get(
    app,
    "/balances/:app_id/history",
    {
      operationId: "getBalanceHistory",
      tags,
      summary: "Each UTC day's closing balances per currency (available, pending, owed to sellers)",
      params: AppParams,
      querystring: BalanceHistoryQuery,
      resource: BalanceHistory,
    },
    (request) => getBalanceHistory(deps, request.actor, request.params.app_id, request.query.days ?? 30),
  );

  route.list(
    app,
    "/balance-transactions/:app_id",
    {
      operationId: "listBalanceTransactions",
      tags,
      summary: "The app's ledger entries, newest first; filter by payment, type and creation time (UTC)",
      params: AppParams,
      querystring: ListBalanceTransactionsQuery,
      item: BalanceTransaction,
      answer: "Ledger entries",
    },
    (request, page) =>
      service.listBalanceTransactions(deps, request.actor, request.params.app_id, page, request.query),
  );

  app.get(
    "/reports/:app_id/balance-transactions.csv",
    {
      config: { page: "text/csv" },
      schema: {
        operationId: "balanceTransactionsCsv",
        tags,
        summary: "The app's ledger entries of a period as CSV (RFC 4180, UTC), oldest first, streamed",
        params: AppParams,
        querystring: ReportQuery,
      },
    },
    async (request, reply) => {
      const stream = await balanceTransactionsCsv(deps, request.actor, request.params.app_id, request.query);
      return reply
        .type("text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="balance-transactions-${request.params.app_id}.csv"`,
        )
        .header("cache-control", "no-store")
        .send(stream);
    },
  );

  route.get(
    app,
    "/reports/:app_id/seller-payouts",
    {
      operationId: "sellerPayouts",
      tags,
      summary:
        "Per seller and currency: earned, refunded, transferred, reversed and still owed over a period (UTC)",
      params: AppParams,
      querystring: ReportQuery,
      resource: SellerPayouts,
    },
    (request) => sellerPayouts(deps, request.actor, request.params.app_id, request.query),
  );

  reconciliationRoutes(app, deps);
}

/** Reconciliation runs: ask for one, list them, read one with its findings. */
function reconciliationRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/reconciliations/:app_id",
    {
      operationId: "requestReconciliation",
      tags,
      summary:
        "Compare the books with the payments, the provider and the chain now (answers the running run)",
      params: AppParams,
      resource: Reconciliation,
    },
    (request) => requestReconciliation(deps, request.actor, request.params.app_id),
  );

  route.list(
    app,
    "/reconciliations/:app_id",
    {
      operationId: "listReconciliations",
      tags,
      summary: "The app's reconciliation runs, newest first, each with its mismatches",
      params: AppParams,
      item: Reconciliation,
      answer: "Reconciliation runs",
    },
    (request, page) => listReconciliations(deps, request.actor, request.params.app_id, page),
  );

  route.get(
    app,
    "/reconciliations/:app_id/:reconciliation_id",
    {
      operationId: "getReconciliation",
      tags,
      summary: "One reconciliation run",
      params: ReconciliationParams,
      resource: Reconciliation,
    },
    (request) =>
      getReconciliation(deps, request.actor, request.params.app_id, request.params.reconciliation_id),
  );
}

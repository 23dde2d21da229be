import { ApiError } from "@payments-backend/sdk";

/**
 * Saves the ledger's CSV report of a period (`GET /reports/{app_id}/balance-transactions.csv`) as a
 * file. Fetched here rather than through the SDK, whose calls read answers as JSON: the report is
 * text/csv, streamed by the service, and saved as it comes.
 */
export async function downloadLedgerCsv(
  token: string | undefined,
  appId: string,
  period: { from?: string; to?: string },
): Promise<void> {
  const query = new URLSearchParams();
  if (period.from) query.set("from", period.from);
  if (period.to) query.set("to", period.to);
  const response = await fetch(`/reports/${encodeURIComponent(appId)}/balance-transactions.csv?${query}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const text = await response.text();
    let problem: Record<string, unknown> = {};
    try {
      problem = JSON.parse(text) as Record<string, unknown>;
    } catch {
      problem = { detail: text };
    }
    throw new ApiError(response.status, problem, response.headers.get("x-request-id") ?? undefined);
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = `balance-transactions-${appId}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

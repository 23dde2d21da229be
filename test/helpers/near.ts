import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PublicKey } from "@near-js/crypto";
import { encodeTransaction, SignedTransaction } from "@near-js/transactions";
import { baseEncode } from "@near-js/utils";
import { type JsonRpcHandlers, serveJsonRpc } from "./json-rpc.ts";

/** What the stand-in does with a transaction, chosen by the called method's name. */
export type NearScenario = "success" | "fail" | "receipt_fail" | "slow" | "timeout";

interface Stored {
  signed: SignedTransaction;
  scenario: NearScenario;
  polls: number;
}

export interface NearStandIn {
  url: string;
  /** Every transaction the stand-in accepted, with its decoded content. */
  received: SignedTransaction[];
  close(): Promise<void>;
}

const FINAL_STAGES = ["INCLUDED", "EXECUTED_OPTIMISTIC", "FINAL"];

/**
 * A loopback stand-in for a NEAR RPC node: it decodes each signed transaction with the SDK's own
 * Borsh schema, checks the signature against the account's registered key and the nonce against the
 * access key's, and answers `tx` queries as the scenario says (methods named `fail`, `receipt_fail`,
 * `slow`, `timeout`; anything else succeeds and returns its args).
 */
export async function startNearStandIn(accounts: Record<string, string>): Promise<NearStandIn> {
  const nonces = new Map<string, bigint>(Object.keys(accounts).map((a) => [a, 7n]));
  const stored = new Map<string, Stored>();
  const received: SignedTransaction[] = [];
  const blockHash = baseEncode(randomBytes(32));
  const handlers: JsonRpcHandlers = {
    query: (params) => {
      if (params.request_type !== "view_access_key")
        throw rpcError("UNSUPPORTED", "stand-in only views access keys");
      if (accounts[params.account_id] !== params.public_key) {
        throw rpcError("UNKNOWN_ACCESS_KEY", `access key ${params.public_key} does not exist while viewing`);
      }
      return {
        nonce: Number(nonces.get(params.account_id)),
        permission: "FullAccess",
        block_height: 100,
        block_hash: blockHash,
      };
    },
    block: () => ({ header: { hash: blockHash, height: 100 } }),
    send_tx: (params) => {
      const signed = SignedTransaction.decode(Buffer.from(params.signed_tx_base64, "base64"));
      // Decoding yields plain Borsh objects: the enums are read through their variant fields.
      const tx = signed.transaction as any;
      const hash = createHash("sha256").update(encodeTransaction(tx)).digest();
      const key = PublicKey.from(accounts[tx.signerId] ?? "ed25519:11111111111111111111111111111111");
      const sameKey = Buffer.from(key.data).equals(Buffer.from(tx.publicKey.ed25519Key.data));
      if (!sameKey || !key.verify(hash, Uint8Array.from((signed.signature as any).ed25519Signature.data))) {
        throw rpcError("INVALID_TRANSACTION", "InvalidSignature");
      }
      if (tx.nonce <= (nonces.get(tx.signerId) ?? 0n)) throw rpcError("INVALID_TRANSACTION", "InvalidNonce");
      nonces.set(tx.signerId, tx.nonce);
      const method = tx.actions[0]?.functionCall?.methodName ?? "";
      const scenario = (
        ["fail", "receipt_fail", "slow", "timeout"].includes(method) ? method : "success"
      ) as NearScenario;
      const id = baseEncode(hash);
      stored.set(id, { signed, scenario, polls: 0 });
      received.push(signed);
      if (scenario === "timeout") throw rpcError("TIMEOUT_ERROR", "Timeout");
      return { final_execution_status: "NONE" };
    },
    tx: (params) => {
      const entry = stored.get(params.tx_hash);
      if (!entry) throw rpcError("UNKNOWN_TRANSACTION", `Transaction ${params.tx_hash} doesn't exist`);
      entry.polls += 1;
      if (entry.scenario === "timeout" && entry.polls === 1) throw rpcError("TIMEOUT_ERROR", "Timeout");
      const stage = entry.scenario === "slow" ? FINAL_STAGES[Math.min(entry.polls - 1, 2)] : "FINAL";
      return outcome(params.tx_hash, entry, stage);
    },
  };
  const server = createServer(serveJsonRpc(handlers));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function rpcError(cause: string, data: string) {
  return {
    code: -32000,
    message: "Server error",
    name: "HANDLER_ERROR",
    cause: { name: cause, info: {} },
    data,
  };
}

function outcome(id: string, entry: Stored, stage: string) {
  const tx = entry.signed.transaction;
  const call = tx.actions[0].functionCall!;
  const receiptId = baseEncode(createHash("sha256").update(`${id}:receipt`).digest());
  const callbackId = baseEncode(createHash("sha256").update(`${id}:callback`).digest());
  const panic = {
    ActionError: {
      index: 0,
      kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: sold out" } },
    },
  };
  const args = Buffer.from(call.args).toString("base64");
  const receipt = (rid: string, status: unknown, logs: string[]) => ({
    id: rid,
    block_hash: id,
    outcome: { logs, receipt_ids: [], gas_burnt: 1, tokens_burnt: "0", executor_id: tx.receiverId, status },
  });
  const receipts =
    entry.scenario === "fail"
      ? [receipt(receiptId, { Failure: panic }, ["buying"])]
      : entry.scenario === "receipt_fail"
        ? // The transaction's own call succeeds; its cross-contract callback fails afterwards.
          [
            receipt(receiptId, { SuccessValue: args }, ["buying"]),
            receipt(callbackId, { Failure: panic }, []),
          ]
        : [receipt(receiptId, { SuccessValue: args }, [`called ${call.methodName}`])];
  return {
    final_execution_status: stage,
    status: entry.scenario === "fail" ? { Failure: panic } : { SuccessValue: args },
    transaction: { hash: id, signer_id: tx.signerId, receiver_id: tx.receiverId, nonce: Number(tx.nonce) },
    transaction_outcome: {
      id,
      block_hash: id,
      outcome: {
        logs: [],
        receipt_ids: [receiptId],
        gas_burnt: 1,
        tokens_burnt: "0",
        executor_id: tx.signerId,
        status: { SuccessReceiptId: receiptId },
      },
    },
    receipts_outcome: receipts,
  };
}

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getSignatureFromTransaction, getTransactionDecoder, type Transaction } from "@solana/kit";
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from "litesvm";

interface Landed {
  result: TransactionMetadata | FailedTransactionMetadata;
  polls: number;
}

export interface SolanaStandIn {
  url: string;
  /** How many status polls a transaction takes per stage (processed, confirmed, finalized). */
  pollsPerStage: number;
  /** What `isBlockhashValid` answers: false simulates an expired blockhash. */
  blockhashValid: boolean;
  close(): Promise<void>;
}

/**
 * A loopback JSON-RPC server that answers the few methods the adapter uses, executing every
 * transaction in litesvm: the adapter's real RPC path runs against real execution, while the
 * commitment stages are simulated (one stage per `pollsPerStage` status polls).
 */
export async function startSolanaStandIn(svm: LiteSVM): Promise<SolanaStandIn> {
  const landed = new Map<string, Landed>();
  const stages = ["processed", "confirmed", "finalized"] as const;
  const standIn = { pollsPerStage: 1, blockhashValid: true } as SolanaStandIn;
  const methods: Record<string, (params: any[]) => unknown> = {
    getLatestBlockhash: () => ({
      context: { slot: 1 },
      value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1000 },
    }),
    isBlockhashValid: () => ({ context: { slot: 1 }, value: standIn.blockhashValid }),
    sendTransaction: ([wire]) => {
      const tx = getTransactionDecoder().decode(Buffer.from(wire, "base64")) as Transaction;
      const signature = getSignatureFromTransaction(tx);
      // The runtime keeps one result per signature: a copy sent again changes nothing.
      if (landed.has(signature)) return signature;
      landed.set(signature, { result: svm.sendTransaction(tx), polls: 0 });
      return signature;
    },
    getSignatureStatuses: ([signatures]) => ({
      context: { slot: 1 },
      value: signatures.map((signature: string) => {
        const entry = landed.get(signature);
        if (!entry) return null;
        const stage = stages[Math.min(2, Math.floor(entry.polls / standIn.pollsPerStage))];
        entry.polls += 1;
        const err = rpcError(entry.result);
        return {
          slot: 1,
          confirmations: stage === "finalized" ? null : entry.polls,
          err,
          status: err ? { Err: err } : { Ok: null },
          confirmationStatus: stage,
        };
      }),
    }),
    getTransaction: ([signature]) => {
      const entry = landed.get(signature);
      if (!entry) return null;
      const meta = entry.result instanceof FailedTransactionMetadata ? entry.result.meta() : entry.result;
      return { slot: 1, blockTime: null, meta: { err: rpcError(entry.result), logMessages: meta.logs() } };
    },
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const { id, method, params } = JSON.parse(body);
      const handler = methods[method];
      const answer = handler
        ? { jsonrpc: "2.0", id, result: handler(params ?? []) }
        : { jsonrpc: "2.0", id, error: { code: -32601, message: `stand-in has no ${method}` } };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return standIn;
}

function rpcError(result: TransactionMetadata | FailedTransactionMetadata): unknown {
  return result instanceof FailedTransactionMetadata ? { litesvm: result.err().toString() } : null;
}

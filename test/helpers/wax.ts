import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ABI, PackedTransaction, Serializer, Signature } from "@wharfkit/antelope";

export interface WaxStandIn {
  url: string;
  chainId: string;
  /** Blocks between head and last irreversible block; raise it for slow finality. */
  lag: number;
  /** Decoded actions the stand-in accepted: `${account}::${name}` and the ABI-decoded data. */
  received: { action: string; data: Record<string, unknown>; actor: string }[];
  /** Drops a transaction from the block that held it, as a fork switch would. */
  forkOut(transactionId: string): void;
  close(): Promise<void>;
}

/**
 * A loopback stand-in for a WAX node's chain API. Every get_info is one more block (time passing);
 * push_transaction decodes the packed transaction, recovers each signature's key for the chain id
 * and requires the authorizing account's registered key, decodes the action with the contract's
 * ABI, and answers by action name: `fail` is an assertion failure, `stall` is included but answered
 * after `stallMs` (longer than the client waits), anything else is included in a new block.
 */
export async function startWaxStandIn(options: {
  accounts: Record<string, string>;
  abi: unknown;
  stallMs?: number;
  /** The stand-in's clock for expirations; the real one when omitted. */
  now?: () => Date;
}): Promise<WaxStandIn> {
  const abi = ABI.from(options.abi as ABI);
  const chainId = randomBytes(32).toString("hex");
  let head = 1000;
  const blocks = new Map<number, string[]>();
  const where = new Map<string, number>();
  const blockId = (n: number) =>
    n.toString(16).padStart(8, "0") + createHash("sha256").update(`b${n}`).digest("hex").slice(8);
  const standIn = { chainId, lag: 3, received: [] } as unknown as WaxStandIn;

  const routes: Record<string, (body: any) => Promise<[number, unknown]> | [number, unknown]> = {
    get_info: () => {
      head += 1;
      const lib = head - standIn.lag;
      return [
        200,
        {
          server_version: "standin",
          chain_id: chainId,
          head_block_num: head,
          last_irreversible_block_num: lib,
          last_irreversible_block_id: blockId(lib),
          head_block_id: blockId(head),
          head_block_time: (options.now?.() ?? new Date()).toISOString().slice(0, -1),
          head_block_producer: "eosio",
          virtual_block_cpu_limit: 200000000,
          virtual_block_net_limit: 1048576000,
          block_cpu_limit: 200000,
          block_net_limit: 1048576,
        },
      ];
    },
    push_transaction: async (body) => {
      const packed = PackedTransaction.from(body);
      const tx = packed.getTransaction();
      const digest = tx.signingDigest(chainId);
      const keys = packed.signatures.map((s) => String(Signature.from(s).recoverDigest(digest)));
      for (const action of tx.actions) {
        for (const auth of action.authorization) {
          const expected = options.accounts[`${auth.actor}@${auth.permission}`];
          if (!expected || !keys.includes(expected)) {
            return nodeError(3090003, "unsatisfied_authorization", `missing authority of ${auth.actor}`);
          }
        }
      }
      // nodeos answers these before running anything: bytes it already has, bytes past expiration.
      if (where.has(String(tx.id)))
        return nodeError(3040008, "tx_duplicate", `duplicate transaction ${tx.id}`);
      if (tx.expiration.toMilliseconds() < (options.now?.() ?? new Date()).getTime()) {
        return nodeError(3040005, "expired_tx_exception", "expired transaction");
      }
      const action = tx.actions[0];
      const name = String(action.name);
      const data = Serializer.objectify(Serializer.decode({ data: action.data, type: name, abi }));
      if (name === "fail")
        return nodeError(
          3050003,
          "eosio_assert_message_exception",
          "assertion failure with message: sold out",
        );
      const id = String(tx.id);
      head += 1;
      blocks.set(head, [...(blocks.get(head) ?? []), id]);
      where.set(id, head);
      standIn.received.push({
        action: `${action.account}::${name}`,
        data,
        actor: String(action.authorization[0].actor),
      });
      if (name === "stall") await new Promise((resolve) => setTimeout(resolve, options.stallMs ?? 1000));
      return [
        200,
        {
          transaction_id: id,
          processed: {
            id,
            block_num: head,
            block_time: new Date().toISOString().slice(0, -1),
            receipt: { status: "executed", cpu_usage_us: 100, net_usage_words: 16 },
            elapsed: 100,
            net_usage: 128,
            scheduled: false,
            action_traces: [],
            account_ram_delta: null,
          },
        },
      ];
    },
    get_block: (body) => {
      const n = Number(body.block_num_or_id);
      const ids = blocks.get(n) ?? [];
      return [
        200,
        {
          block_num: n,
          id: blockId(n),
          transactions: ids.map((id) => ({ status: "executed", trx: { id } })),
        },
      ];
    },
    get_transaction_status: (body) => {
      const n = where.get(body.id);
      // Like nodeos's trx_finality_status plugin, it tracks every block since the first.
      return [
        200,
        n === undefined
          ? { state: "UNKNOWN", earliest_tracked_block_number: 1 }
          : { state: "IN_BLOCK", block_number: n, earliest_tracked_block_number: 1 },
      ];
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", async () => {
      const route = routes[(req.url ?? "").replace("/v1/chain/", "")];
      const [status, body] = route
        ? await route(raw ? JSON.parse(raw) : {})
        : [404, { message: "not found" }];
      res.statusCode = status;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.forkOut = (id) => {
    const n = where.get(id);
    if (n !== undefined)
      blocks.set(
        n,
        (blocks.get(n) ?? []).filter((t) => t !== id),
      );
    where.delete(id);
  };
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}

function nodeError(code: number, name: string, message: string): [number, unknown] {
  return [
    500,
    {
      code: 500,
      message: "Internal Service Error",
      error: {
        code,
        name,
        what: name,
        details: [{ message, file: "standin", line_number: 1, method: name }],
      },
    },
  ];
}

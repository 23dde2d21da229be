import type { PreparedCall } from "../../platform/chains/adapter.ts";
import type { RenderedCall } from "../triggers/render.ts";

/** From the trigger's rendered call to what the chain adapter sends. */
export function toPreparedCall(rendered: RenderedCall): PreparedCall {
  switch (rendered.chain) {
    case "evm":
      return {
        chain: "evm",
        to: rendered.evm.to as `0x${string}`,
        data: rendered.evm.data as `0x${string}`,
        value: BigInt(rendered.evm.value || "0"),
        gasLimit: BigInt(rendered.evm.gas_limit ?? "300000"),
      };
    case "near":
      return {
        chain: "near",
        receiverId: rendered.near.receiver_id,
        methodName: rendered.near.method_name,
        args: rendered.near.args,
        gas: BigInt(rendered.near.gas),
        deposit: BigInt(rendered.near.deposit),
      };
    case "wax":
      return {
        chain: "wax",
        account: rendered.wax.account,
        name: rendered.wax.name,
        authorization: rendered.wax.authorization,
        data: rendered.wax.data,
      };
    case "solana":
      return {
        chain: "solana",
        programId: rendered.solana.program_id,
        accounts: rendered.solana.accounts.map((a) => ({
          address: a.address,
          signer: a.is_signer,
          writable: a.is_writable,
        })),
        data: Buffer.from(rendered.solana.data_base64, "base64"),
        computeUnits: rendered.solana.compute_units ? Number(rendered.solana.compute_units) : undefined,
      };
  }
}

/**
 * Each chain's call code, loaded when a call on that chain is first checked or rendered. The EVM,
 * Solana and WAX renderers encode with their chains' SDKs (viem, @solana/kit, @wharfkit), which are
 * about half of a process's module loading; a process that never meets a trigger of a chain does
 * not load its SDK (docs/benchmarks.md, "Chain SDKs loaded when first used"). The module system
 * keeps each after its first load, so a later call costs a resolved promise.
 */
export const chainRenderer = {
  evm: () => import("./evm.ts"),
  near: () => import("./near.ts"),
  solana: () => import("./solana.ts"),
  wax: () => import("./wax.ts"),
};

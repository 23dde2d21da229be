/**
 * Sizes, rent and validation of SPL account-compression Merkle trees (the accounts Bubblegum
 * compressed NFTs live in), computed from the program's account layout so no SDK is needed at
 * run time; test/chains/solana-compression.test.ts checks every pair against the SPL SDK.
 */

/** The (max_depth, max_buffer_size) pairs the SPL account-compression program accepts. */
export const VALID_DEPTH_SIZE_PAIRS: readonly { maxDepth: number; maxBufferSize: number }[] = Object.freeze(
  (
    [
      [3, 8],
      [5, 8],
      [6, 16],
      [7, 16],
      [8, 16],
      [9, 16],
      [10, 32],
      [11, 32],
      [12, 32],
      [13, 32],
      [14, 64],
      [14, 256],
      [14, 1024],
      [14, 2048],
      [15, 64],
      [16, 64],
      [17, 64],
      [18, 64],
      [19, 64],
      [20, 64],
      [20, 256],
      [20, 1024],
      [20, 2048],
      [24, 64],
      [24, 256],
      [24, 512],
      [24, 1024],
      [24, 2048],
      [26, 512],
      [26, 1024],
      [26, 2048],
      [30, 512],
      [30, 1024],
      [30, 2048],
    ] as const
  ).map(([maxDepth, maxBufferSize]) => Object.freeze({ maxDepth, maxBufferSize })),
);

function isValidDepthSizePair(maxDepth: number, maxBufferSize: number): boolean {
  return VALID_DEPTH_SIZE_PAIRS.some((p) => p.maxDepth === maxDepth && p.maxBufferSize === maxBufferSize);
}

const NODE = 32;
/** Account discriminator (1) + header version (1). */
const PREFIX = 2;
/** Header V1: max_buffer_size u32, max_depth u32, authority (32), creation_slot u64, padding [u8; 6]. */
const HEADER_V1 = 4 + 4 + 32 + 8 + 6;
/** Tree: sequence_number, active_index, buffer_size (u64 each) before the change logs. */
const TREE_COUNTERS = 3 * 8;

/** Bytes of a tree account: header, the concurrent tree (change logs + rightmost path), canopy. */
export function treeAccountSize(maxDepth: number, maxBufferSize: number, canopyDepth = 0): number {
  // ChangeLog<D>: root, path [Node; D], index u32, padding u32.
  const changeLog = NODE + NODE * maxDepth + 4 + 4;
  // Path<D>: proof [Node; D], leaf, index u32, padding u32.
  const rightmostPath = NODE * maxDepth + NODE + 4 + 4;
  // The canopy caches the top levels except the root: 2^(c+1) - 2 nodes.
  const canopy = canopyDepth > 0 ? ((1 << (canopyDepth + 1)) - 2) * NODE : 0;
  return PREFIX + HEADER_V1 + TREE_COUNTERS + maxBufferSize * changeLog + rightmostPath + canopy;
}

/**
 * Solana's rent-exemption minimum under the current rent parameters: 3,480 lamports per byte-year,
 * two years, and 128 bytes of account overhead (solana-program `Rent::default`).
 */
const LAMPORTS_PER_BYTE_YEAR = 3480n;
const EXEMPTION_YEARS = 2n;
const ACCOUNT_STORAGE_OVERHEAD = 128n;

export function rentExemptLamports(space: number): bigint {
  return (BigInt(space) + ACCOUNT_STORAGE_OVERHEAD) * LAMPORTS_PER_BYTE_YEAR * EXEMPTION_YEARS;
}

/**
 * The canopy rule. Every leaf change (a Bubblegum transfer, burn, redeem…) sends the proof nodes the
 * canopy does not cache as extra 32-byte account keys, and Metaplex's guidance is to size the
 * canopy so that proof still fits one transaction. We compute the limit from the largest common
 * such transaction — a Bubblegum `transfer` with a compute-unit limit and a priority fee — inside
 * Solana's 1,232-byte packet: proofs of more than MAX_PROOF_NODES nodes are refused.
 */
const SOLANA_PACKET_BYTES = 1232;
export const MAX_PROOF_NODES = maxProofNodes();

function maxProofNodes(): number {
  const keys = 10; // payer/owner, delegate, new owner, tree config, tree, noop, compression, system, bubblegum, compute budget
  const transferAccounts = 8;
  const transferData = 8 + 32 + 32 + 32 + 8 + 4; // discriminator, root, data hash, creator hash, nonce, index
  const fixed =
    1 +
    64 +
    3 +
    1 +
    keys * NODE +
    NODE +
    1 + // one signature, header, keys, blockhash, instruction count
    (1 + 1 + transferAccounts + 1 + transferData) + // the transfer instruction without its proof
    (1 + 1 + 1 + 5) + // SetComputeUnitLimit
    (1 + 1 + 1 + 9); // SetComputeUnitPrice
  // Each proof node adds its key and its one-byte account index in the instruction.
  return Math.floor((SOLANA_PACKET_BYTES - fixed) / (NODE + 1));
}

export interface TreeProblem {
  field: "max_depth_size_pair" | "canopy_depth";
  message: string;
}

/** Problems with a requested tree, empty when it can be created (docs/solana.md). */
export function validateTree(maxDepth: number, maxBufferSize: number, canopyDepth: number): TreeProblem[] {
  const problems: TreeProblem[] = [];
  if (!isValidDepthSizePair(maxDepth, maxBufferSize)) {
    problems.push({
      field: "max_depth_size_pair",
      message: `{max_depth: ${maxDepth}, max_buffer_size: ${maxBufferSize}} is not a pair the SPL account-compression program accepts`,
    });
    return problems;
  }
  if (!Number.isInteger(canopyDepth) || canopyDepth < 0 || canopyDepth >= maxDepth) {
    problems.push({ field: "canopy_depth", message: `must be an integer from 0 to ${maxDepth - 1}` });
  } else if (maxDepth - canopyDepth > MAX_PROOF_NODES) {
    problems.push({
      field: "canopy_depth",
      message: `must be at least ${maxDepth - MAX_PROOF_NODES} for max_depth ${maxDepth}: proofs of more than ${MAX_PROOF_NODES} nodes do not fit a transaction`,
    });
  }
  return problems;
}

export interface TreeCost {
  space: number;
  lamports: bigint;
}

export function treeCost(maxDepth: number, maxBufferSize: number, canopyDepth: number): TreeCost {
  const space = treeAccountSize(maxDepth, maxBufferSize, canopyDepth);
  return { space, lamports: rentExemptLamports(space) };
}

import type { SolanaCollectionRow, SolanaTreeRow } from "./tables.ts";

function chainState(row: SolanaTreeRow | SolanaCollectionRow) {
  return {
    tx_signature: row.txSignature,
    status: row.status,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentTree(row: SolanaTreeRow) {
  return {
    id: row.id,
    address: row.address,
    max_depth: row.maxDepth,
    max_buffer_size: row.maxBufferSize,
    canopy_depth: row.canopyDepth,
    account_size: row.accountSize,
    rent_lamports: row.rentLamports.toString(),
    ...chainState(row),
  };
}

export function presentCollection(row: SolanaCollectionRow) {
  return {
    id: row.id,
    name: row.name,
    symbol: row.symbol,
    uri: row.uri,
    mint_address: row.mintAddress,
    token_account_address: row.tokenAccountAddress,
    metadata_account_address: row.metadataAccountAddress,
    master_edition_account_address: row.masterEditionAccountAddress,
    ...chainState(row),
  };
}

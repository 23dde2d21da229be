// Creating a tree or a collection: one job sends the transaction, another follows it to finality.
export const SEND_CREATION_JOB = "solana.send-creation";
export const FOLLOW_CREATION_JOB = "solana.follow-creation";

export type CreationKind = "tree" | "collection";

export interface CreationJob {
  kind: CreationKind;
  id: string;
}

/** Bound into the sealed secret of the new account, so it only opens for the record it was made for. */
export const creationContext = (kind: CreationKind, id: string) => `solana-${kind}:${id}`;

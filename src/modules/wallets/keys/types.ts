/** What a wallet's key comes to: its account, its public key where the chain has one, the secret. */
export interface KeyMaterial {
  accountId: string;
  publicKey: string | null;
  /** The private key in the chain's usual text form; sealed before it is stored. */
  secret: string;
}

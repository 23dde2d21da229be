// The auction's jobs; each is idempotent, keyed by the auction or the bid.
export const CLOSE_AUCTION_JOB = "auctions.close";
/** Places (or refuses) a bid once its payment is on hold or has failed. */
export const SETTLE_BID_JOB = "auctions.settle-bid";
/** The standing bid's card authorisation is about to lapse before the auction ends. */
export const HOLD_EXPIRING_JOB = "auctions.hold-expiring";
export const SHOPPER_CODE_JOB = "auctions.send-shopper-code";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";

/** How the page learns of new bids: the auction's event stream, or polling while it is down. */
export type LiveMode = "connecting" | "stream" | "polling";

const POLL_MS = 5000;

/**
 * One auction with its bids, kept current. The service's live channel is the public page's
 * server-sent events (`GET /a/{auction_id}/events`): it needs no credential (an EventSource cannot
 * send an Authorization header) and sends the public state, bidders masked, whenever it changes.
 * It is used only as the signal: each event refetches the full auction through the SDK with the
 * owner's session (the app's auctions list too). While the stream is down (or the browser has no
 * EventSource) the query polls.
 */
export function useLiveAuction(auctionId: string) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>("connecting");
  // Set while the auction is being deleted: neither the stream (which the browser would open again
  // once the service ends it) nor a poll may ask for it then, a 404 nobody wanted.
  const [deleting, setDeleting] = useState(false);
  const queryKey = ["auctions", appId, auctionId];

  const auction = useQuery({
    queryKey,
    queryFn: () => client.auctions.get(appId, auctionId),
    enabled: !deleting,
    refetchInterval: (query) => (mode === "stream" || query.state.data?.expired ? false : POLL_MS),
  });
  const expired = auction.data?.expired ?? false;

  useEffect(() => {
    if (deleting) return;
    if (expired || typeof EventSource === "undefined") {
      setMode("polling");
      return;
    }
    const source = new EventSource(`/a/${encodeURIComponent(auctionId)}/events`);
    source.addEventListener("state", () => {
      setMode("stream");
      // The prefix: the auctions list (current amount, bid count) changes with the auction.
      void queryClient.invalidateQueries({ queryKey: ["auctions", appId] });
    });
    // The browser reconnects by itself (the stream asks for 2 s); poll meanwhile.
    source.onerror = () => setMode("polling");
    return () => source.close();
  }, [appId, auctionId, expired, deleting, queryClient]);

  return { auction, mode, setDeleting };
}

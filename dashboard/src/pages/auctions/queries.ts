import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";

/** The app's auctions, newest first: one page of up to 100. */
export function useAuctions() {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    // Beside each auction's own ["auctions", appId, id]: "list" lets an event refresh the list
    // without reading every auction again.
    queryKey: ["auctions", appId, "list"],
    queryFn: async () => (await client.auctions.list(appId).page({ limit: 100 })).data,
  });
}

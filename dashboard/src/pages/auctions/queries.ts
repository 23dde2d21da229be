import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";

/** The app's auctions, newest first: one page of up to 100. */
export function useAuctions() {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    queryKey: ["auctions", appId],
    queryFn: async () => (await client.auctions.list(appId).page({ limit: 100 })).data,
  });
}

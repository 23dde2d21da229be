import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";

/** The app's wallets, newest first: one page of up to 100 (an app holds a handful). */
export function useWallets() {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    queryKey: ["wallets", appId],
    queryFn: async () => (await client.wallets.list(appId).page({ limit: 100 })).data,
  });
}

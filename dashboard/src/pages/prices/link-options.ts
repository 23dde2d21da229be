import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";

/** How many triggers and sellers the pickers offer: the newest ones. */
const OPTIONS_LIMIT = 100;

/** What a price can be linked to: the app's triggers (the contract call a payment runs) and sellers. */
export function useLinkOptions() {
  const client = useClient();
  const appId = useAppId();
  const triggers = useQuery({
    queryKey: ["triggers", appId, "options"],
    queryFn: async () => (await client.triggers.list(appId).page({ limit: OPTIONS_LIMIT })).data,
  });
  const sellers = useQuery({
    queryKey: ["kycs", appId, "options"],
    queryFn: async () => (await client.kyc.list(appId).page({ limit: OPTIONS_LIMIT })).data,
  });
  return {
    triggers: (triggers.data ?? []).map((trigger) => ({
      value: trigger.id,
      label: `${trigger.name} (${trigger.wallet.type})`,
      chain: trigger.wallet.type,
    })),
    sellers: (sellers.data ?? []).map((seller) => ({
      value: seller.id,
      label: seller.email ? `${seller.identifier} (${seller.email})` : seller.identifier,
    })),
    loading: triggers.isPending || sellers.isPending,
  };
}

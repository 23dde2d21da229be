import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";

/** The app's triggers, newest first: one page of up to 100. */
export function useTriggers() {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    queryKey: ["triggers", appId],
    queryFn: async () => (await client.triggers.list(appId).page({ limit: 100 })).data,
  });
}

export function useTrigger(triggerId: string) {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    queryKey: ["triggers", appId, triggerId],
    queryFn: () => client.triggers.get(appId, triggerId),
  });
}

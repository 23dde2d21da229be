import { useQuery } from "@tanstack/react-query";
import { useClient } from "../../api.tsx";

/** The apps the signed-in user belongs to (one cache entry shared by the list and the app switcher). */
export function useApps() {
  const client = useClient();
  return useQuery({ queryKey: ["apps"], queryFn: () => client.apps.list({ limit: 100 }).toArray(1000) });
}

export function useApp(appId: string) {
  const client = useClient();
  return useQuery({ queryKey: ["apps", appId], queryFn: () => client.apps.get(appId) });
}

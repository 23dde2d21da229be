import { ApiError, Client } from "@payments-backend/sdk";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { useParams } from "react-router";
import { markUnreachable } from "./components/connection.tsx";
import { explainError, isUnreachable } from "./components/errors.ts";

/**
 * The signed-in session lives in sessionStorage: it survives a reload but not the tab, and is never
 * shared with another tab (closing the tab is a sign-out, as a shared computer wants).
 */
const SESSION_KEY = "payments-dashboard.session";

export interface Session {
  token: string;
  email: string;
}

function storedSession(): Session | null {
  try {
    const text = sessionStorage.getItem(SESSION_KEY);
    return text ? (JSON.parse(text) as Session) : null;
  } catch {
    return null;
  }
}

interface SessionState {
  session: Session | null;
  client: Client;
  /** Keeps a new session (after signing up or in). */
  begin(session: Session): void;
  /** Ends the session on the service (best effort) and forgets it here. */
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

const baseUrl = () => window.location.origin;

const expired = (error: unknown) => error instanceof ApiError && error.status === 401;

/** An SDK client for the page's origin, signed in with `token` when given. */
export function newClient(token?: string): Client {
  return new Client({
    baseUrl: baseUrl(),
    token,
    timeoutMs: 15_000,
  });
}

/** The session, the signed-in SDK client and the query cache, for everything below it. */
export function ApiProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(storedSession);
  const forget = useCallback(() => {
    sessionStorage.removeItem(SESSION_KEY);
    setSession(null);
  }, []);
  const onFailure = useCallback(
    (error: unknown) => {
      if (expired(error)) forget();
      else if (isUnreachable(error)) markUnreachable();
    },
    [forget],
  );
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // A session that expired or was revoked elsewhere: back to the sign-in page.
        // A call that got no answer at all: the connection banner probes until the service is back.
        queryCache: new QueryCache({ onError: (error) => onFailure(error) }),
        mutationCache: new MutationCache({ onError: (error) => onFailure(error) }),
        // The SDK already retries what is worth retrying (429, 5xx, lost connections).
        defaultOptions: { queries: { retry: false, staleTime: 10_000 }, mutations: { retry: false } },
      }),
  );
  const client = useMemo(() => newClient(session?.token), [session]);
  const state = useMemo<SessionState>(
    () => ({
      session,
      client,
      begin(next) {
        sessionStorage.setItem(SESSION_KEY, JSON.stringify(next));
        queryClient.clear();
        setSession(next);
      },
      async signOut() {
        try {
          await client.auth.logOut();
        } catch {
          // Already expired or unreachable: forgetting it here is what the user asked for.
        }
        queryClient.clear();
        forget();
      },
    }),
    [session, client, queryClient, forget],
  );
  return (
    <SessionContext.Provider value={state}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </SessionContext.Provider>
  );
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error("useSession needs <ApiProvider>");
  return state;
}

/** The SDK client with the signed-in session's token, talking to the page's origin. */
export function useClient(): Client {
  return useSession().client;
}

/** The app the page is about: the `appId` route parameter. */
export function useAppId(): string {
  const { appId } = useParams();
  if (!appId) throw new Error("useAppId is for pages under /apps/:appId");
  return appId;
}

/** What a failed call says to a person, as one sentence (components/errors.ts explains each kind). */
export function describeError(error: unknown): { detail: string } {
  const { title, detail } = explainError(error);
  return { detail: `${title}. ${detail}` };
}

export interface ServiceSettings {
  /** `test`: sandbox providers and chains, nothing real moves. */
  mode: "test" | "live";
  /** The service's name (SERVICE_NAME): the console's brand. */
  name?: string;
}

/** The serving process's own settings (test or live mode), read once per page load. */
export function useServiceSettings() {
  return useQuery({
    queryKey: ["service-settings"],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<ServiceSettings> => {
      const response = await fetch(`${import.meta.env.BASE_URL}service.json`);
      if (!response.ok) throw new Error(`service.json answered ${response.status}`);
      return (await response.json()) as ServiceSettings;
    },
  });
}

import { Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { newClient, useSession } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { AuthCard } from "./AuthCard.tsx";

export function SignInPage() {
  const { session, begin } = useSession();
  // Already signed in on arrival (a bookmark, the back button): straight to the apps.
  const [arrivedSignedIn] = useState(() => session !== null);
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useMutation({
    mutationFn: (body: { email: string; password: string }) => newClient().auth.logIn(body),
    onSuccess: (answer, body) => {
      begin({ token: answer.token, email: body.email });
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from ?? "/", { replace: true });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    signIn.mutate({ email: String(form.get("email")), password: String(form.get("password")) });
  };
  if (arrivedSignedIn) return <Navigate to="/" replace />;
  return (
    <AuthCard title="Sign in" footer={{ text: "No account yet?", link: "Sign up", to: "/sign-up" }}>
      <form onSubmit={submit}>
        <Stack>
          {signIn.isError && <ErrorAlert error={signIn.error} />}
          <TextInput label="Email" name="email" type="email" autoComplete="email" required />
          <PasswordInput label="Password" name="password" autoComplete="current-password" required />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

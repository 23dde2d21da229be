import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { ApiError } from "@payments-backend/sdk";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { newClient, useSession } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { AuthCard } from "./AuthCard.tsx";

/** The log-in's answer when the account has two-factor on: a challenge for the code step. */
function challengeOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.code !== "two_factor_required") return undefined;
  const token = error.problem.challenge_token;
  return typeof token === "string" ? token : undefined;
}

export function SignInPage() {
  const { session, begin } = useSession();
  // Already signed in on arrival (a bookmark, the back button): straight to the apps.
  const [arrivedSignedIn] = useState(() => session !== null);
  const [challenge, setChallenge] = useState<{ token: string; email: string } | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const enter = (token: string, email: string) => {
    begin({ token, email });
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from ?? "/", { replace: true });
  };
  const signIn = useMutation({
    mutationFn: (body: { email: string; password: string }) => newClient().auth.logIn(body),
    onSuccess: (answer, body) => enter(answer.token, body.email),
    onError: (error, body) => {
      const token = challengeOf(error);
      if (token) setChallenge({ token, email: body.email });
    },
  });
  const secondStep = useMutation({
    mutationFn: (code: string) =>
      newClient().users.logInTwoFactor({ challenge_token: challenge?.token ?? "", code }),
    onSuccess: (answer) => challenge && enter(answer.token, challenge.email),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    signIn.mutate({ email: String(form.get("email")), password: String(form.get("password")) });
  };
  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    secondStep.mutate(String(new FormData(event.currentTarget).get("code")).trim());
  };
  if (arrivedSignedIn) return <Navigate to="/" replace />;
  if (challenge) {
    return (
      <AuthCard
        title="Two-factor code"
        footer={{
          text: "Lost your authenticator and codes?",
          link: "Reset the password",
          to: "/forgot-password",
        }}
      >
        <form onSubmit={submitCode}>
          <Stack>
            {secondStep.isError && <ErrorAlert error={secondStep.error} />}
            <Text size="sm">Enter the code your authenticator app shows, or one of your recovery codes.</Text>
            <TextInput label="Code" name="code" autoComplete="one-time-code" required autoFocus />
            <Button type="submit" loading={secondStep.isPending}>
              Verify
            </Button>
          </Stack>
        </form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Sign in" footer={{ text: "No account yet?", link: "Sign up", to: "/sign-up" }}>
      <form onSubmit={submit}>
        <Stack>
          {signIn.isError && !challengeOf(signIn.error) && <ErrorAlert error={signIn.error} />}
          <TextInput label="Email" name="email" type="email" autoComplete="email" required />
          <PasswordInput label="Password" name="password" autoComplete="current-password" required />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot your password?
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}

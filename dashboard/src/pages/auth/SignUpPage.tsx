import { Button, Group, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { newClient, useSession } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { AuthCard } from "./AuthCard.tsx";

interface SignUpBody {
  email: string;
  password: string;
  username: string;
  first_name: string;
  last_name: string;
}

export function SignUpPage() {
  const { session, begin } = useSession();
  // Already signed in on arrival (a bookmark, the back button): straight to the apps.
  const [arrivedSignedIn] = useState(() => session !== null);
  const navigate = useNavigate();
  const signUp = useMutation({
    mutationFn: (body: SignUpBody) => newClient().auth.signUp(body),
    onSuccess: (answer, body) => {
      begin({ token: answer.token, email: body.email });
      navigate("/", { replace: true });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? "").trim();
    signUp.mutate({
      email: field("email"),
      password: String(form.get("password") ?? ""),
      username: field("username"),
      first_name: field("first_name"),
      last_name: field("last_name"),
    });
  };
  if (arrivedSignedIn) return <Navigate to="/" replace />;
  return (
    <AuthCard
      title="Create your account"
      footer={{ text: "Have an account?", link: "Sign in", to: "/sign-in" }}
    >
      <form onSubmit={submit}>
        <Stack>
          {signUp.isError && <ErrorAlert error={signUp.error} />}
          <Group grow>
            <TextInput label="First name" name="first_name" autoComplete="given-name" required />
            <TextInput label="Last name" name="last_name" autoComplete="family-name" required />
          </Group>
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            description="Letters, digits, dots, dashes and underscores; shown to the members of your apps"
            required
            minLength={2}
            maxLength={64}
            pattern="[A-Za-z0-9_.\-]+"
          />
          <TextInput label="Email" name="email" type="email" autoComplete="email" required />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="new-password"
            description="At least 12 characters"
            required
            minLength={12}
          />
          <Button type="submit" loading={signUp.isPending}>
            Create account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

import { Alert, Button, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { newClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { AuthCard } from "./AuthCard.tsx";

/** Asks for a reset link; the mail's link opens the service's own reset page. */
export default function ForgotPasswordPage() {
  const ask = useMutation({
    mutationFn: (email: string) => newClient().users.requestPasswordReset({ email }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    ask.mutate(String(new FormData(event.currentTarget).get("email")));
  };
  return (
    <AuthCard
      title="Reset your password"
      footer={{ text: "Remembered it?", link: "Sign in", to: "/sign-in" }}
    >
      {ask.isSuccess ? (
        <Alert
          color="green"
          title="Check your mail"
          styles={{ title: { color: "var(--mantine-color-text)" } }}
        >
          If an account has this address, a link to choose a new password is on its way. It works once, within
          the hour.
        </Alert>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            {ask.isError && <ErrorAlert error={ask.error} />}
            <Text size="sm">We will mail a link to choose a new password.</Text>
            <TextInput label="Email" name="email" type="email" autoComplete="email" required />
            <Button type="submit" loading={ask.isPending}>
              Send the link
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

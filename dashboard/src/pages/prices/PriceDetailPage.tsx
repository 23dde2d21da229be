import { Anchor, Card, Group, SegmentedControl, SimpleGrid, Stack, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Price } from "@payments-backend/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { Fact } from "../payments/Fact.tsx";
import { PriceItemTable } from "../payments/PriceItemTable.tsx";
import { DANGER, ToneBadge } from "../payments/tone.tsx";
import { CheckoutLink } from "./CheckoutLink.tsx";
import { EditPriceButton } from "./EditPriceButton.tsx";
import { PriceLinksForm } from "./PriceLinksForm.tsx";

export function PriceDetailPage() {
  const client = useClient();
  const appId = useAppId();
  const { priceId = "" } = useParams();
  const price = useQuery({
    queryKey: ["price", appId, priceId],
    queryFn: () => client.prices.get(appId, priceId),
  });
  return <PageState query={price}>{(data) => <PriceDetail price={data} />}</PageState>;
}

function PriceDetail({ price }: { price: Price }) {
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Anchor component={Link} to=".." relative="path" size="sm">
            ← Prices
          </Anchor>
          <Title order={1}>{price.name}</Title>
          <Group gap="xs">
            <ToneBadge tone="info">{price.type}</ToneBadge>
            <ToneBadge tone={price.expired ? "neutral" : "success"}>
              {price.expired ? "expired" : "active"}
            </ToneBadge>
          </Group>
        </Stack>
        <PriceActions price={price} />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Checkout
          </Title>
          <CheckoutLink priceId={price.id} expired={price.expired} />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Details
          </Title>
          <Stack gap="xs">
            <Fact label={price.type === "dynamic" ? "Minimum amount" : "Amount"}>
              <Money amount={price.amount_decimal} currency={price.currency} />
            </Fact>
            <Fact label="Checkout views">{price.views}</Fact>
            <Fact label="Price id">{price.id}</Fact>
            <Fact label="Network">{price.network_type}</Fact>
            <Fact label="Created">
              <LocalTime value={price.created_at} />
            </Fact>
            {price.expires_at && (
              <Fact label="Expires">
                <LocalTime value={price.expires_at} />
              </Fact>
            )}
            <Anchor
              component={Link}
              to={`../../payments?price_id=${encodeURIComponent(price.id)}`}
              relative="path"
            >
              Payments of this price
            </Anchor>
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Trigger and seller
          </Title>
          <PriceLinksForm key={price.updated_at} price={price} />
        </Card>
        <Card withBorder>
          <FeePreview price={price} />
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

type Method = "card" | "us_bank_account";

/** What a payment of this price would record now, per payment method (the API's fee preview). */
function FeePreview({ price }: { price: Price }) {
  const client = useClient();
  const appId = useAppId();
  const [method, setMethod] = useState<Method>("card");
  const preview = useQuery({
    queryKey: ["price", appId, price.id, "price-item", method, price.updated_at],
    queryFn: () => client.prices.previewPriceItem(appId, price.id, { payment_provider: method }),
  });
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Fees
      </Title>
      <SegmentedControl
        aria-label="Payment method"
        value={method}
        onChange={(value) => setMethod(value as Method)}
        data={[
          { value: "card", label: "Card" },
          { value: "us_bank_account", label: "Bank debit" },
        ]}
      />
      <PageState query={preview} empty="No fee preview">
        {(item) => <PriceItemTable item={item} caption="What a payment of this price would record now" />}
      </PageState>
    </Stack>
  );
}

function PriceActions({ price }: { price: Price }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const expire = useMutation({
    mutationFn: () => client.prices.update(appId, price.id, { expired: !price.expired }),
    onSuccess: (updated) => {
      notifications.show({
        color: "green",
        message: updated.expired ? "Price expired" : "Price active again",
      });
      queryClient.setQueryData(["price", appId, price.id], updated);
      void queryClient.invalidateQueries({ queryKey: ["prices", appId] });
    },
  });
  const remove = useMutation({
    mutationFn: () => client.prices.delete(appId, price.id),
    onSuccess: () => {
      notifications.show({ color: "green", message: "Price deleted" });
      void queryClient.invalidateQueries({ queryKey: ["prices", appId] });
      void navigate("..", { relative: "path" });
    },
  });
  return (
    <Group gap="xs">
      <EditPriceButton price={price} />
      <ConfirmAction
        label={price.expired ? "Reactivate" : "Expire"}
        title={price.expired ? "Reactivate this price?" : "Expire this price?"}
        color={price.expired ? "brand" : DANGER}
        onConfirm={() => expire.mutateAsync()}
      >
        {price.expired
          ? "The checkout takes payments for it again."
          : "The checkout stops taking payments for it; payments already made are kept."}
      </ConfirmAction>
      <ConfirmAction
        label="Delete"
        title={`Delete ${price.name}?`}
        color={DANGER}
        onConfirm={() => remove.mutateAsync()}
      >
        A price that payments refer to is expired instead, so its payments keep their price.
      </ConfirmAction>
    </Group>
  );
}
